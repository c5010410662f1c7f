#!/usr/bin/env python3
"""Edits the search cache's entries for the cache tests.

  cache_entry.py edit DIR OLD NEW    replace text in the (only) entry of DIR
  cache_entry.py reseal DIR          recompute the entry's checksum, as
                                     someone who edits an entry on purpose
                                     would (the pass must still not trust it)
  cache_entry.py truncate DIR BYTES  keep only the first BYTES bytes
  cache_entry.py count DIR           print how many entries DIR holds

The entry layout is SearchCache.cpp's: a magic line, a checksum line
"// checksum: sha256 <hex>" over every other byte, then the rest.
"""
import hashlib, pathlib, re, sys


def entries(directory):
    return sorted(p for p in pathlib.Path(directory).iterdir()
                  if re.fullmatch(r"[0-9a-f]{64}\.mlir", p.name))


def the_entry(directory):
    found = entries(directory)
    if len(found) != 1:
        sys.exit(f"expected one cache entry in {directory}, found {len(found)}")
    return found[0]


def main():
    command, directory, *args = sys.argv[1:]
    if command == "count":
        print(len(entries(directory)))
        return
    path = the_entry(directory)
    text = path.read_bytes()
    if command == "edit":
        old, new = (a.encode() for a in args)
        if old not in text:
            sys.exit(f"{old!r} not in {path}")
        path.write_bytes(text.replace(old, new, 1))
    elif command == "truncate":
        path.write_bytes(text[: int(args[0])])
    elif command == "reseal":
        magic, checksum, rest = text.split(b"\n", 2)
        digest = hashlib.sha256(magic + b"\n" + rest).hexdigest()
        path.write_bytes(magic + b"\n// checksum: sha256 " + digest.encode() +
                         b"\n" + rest)
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
