"""Modules the app never uses stay out of its processes, and the libraries that try them work."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from composer_app.ui import unused_imports


def test_the_app_and_its_server_work_without_them() -> None:
    script = textwrap.dedent("""
        import sys
        from composer_app.ui import unused_imports
        unused_imports.skip()
        import httpx
        from fastapi import FastAPI
        from fastapi.testclient import TestClient
        from pydantic import BaseModel

        class Item(BaseModel):
            name: str

        app = FastAPI()

        @app.post("/items")
        async def create(item: Item) -> Item:
            return item

        reply = TestClient(app).post("/items", json={"name": "chip"})
        assert reply.json() == {"name": "chip"}, reply.text
        assert isinstance(httpx.Client(), httpx.Client)
        loaded = [m for m in ("rich", "click", "pydantic.v1") if sys.modules.get(m) is not None]
        print("loaded:", loaded)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "loaded: []"


def test_a_module_already_loaded_is_left_alone() -> None:
    script = ("import httpx._main, sys\n"
              "from composer_app.ui import unused_imports\n"
              "unused_imports.skip()\n"
              "print(sys.modules['httpx._main'] is not None, sys.modules['pydantic.v1'])\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.split() == ["True", "None"]
    assert unused_imports.UNUSED == ("httpx._main", "pydantic.v1")
