"""window"""
