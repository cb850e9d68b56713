"""A thread's project folder on the server machine: roots, file index, reading, changes, runs."""
