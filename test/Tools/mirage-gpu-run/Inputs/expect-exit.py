#!/usr/bin/env python3
"""Runs a command and succeeds only if it exits with the given status:

    expect-exit.py STATUS COMMAND [ARGS...]

`not` accepts any failure; the tests of mirage-gpu-run need to tell "bad
manifest" (1) from "no GPU" (2). The command's output passes through."""

import subprocess
import sys

expected = int(sys.argv[1])
status = subprocess.run(sys.argv[2:]).returncode
if status != expected:
    sys.stderr.write(f"expect-exit.py: exit status {status}, expected {expected}\n")
    sys.exit(1)
