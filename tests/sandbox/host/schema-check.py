#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# schema-check SCHEMA FILE...: validates each JSON FILE against the JSON
# Schema SCHEMA (Debian's python3-jsonschema); a FILE named *.jsonl is JSON
# lines, each line one document (r0sweep/1, r0scenario/1). Prints one line a
# file and exits 1 if any is invalid, empty, or none was given.
import json, sys
import jsonschema


def documents(path):
    """(where, document) pairs: the file, or each line of a .jsonl file."""
    if not path.endswith(".jsonl"):
        return [(path, json.load(open(path)))]
    return [(f"{path}:{n}", json.loads(line)) for n, line in enumerate(open(path), 1) if line.strip()]


def main():
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    files = sys.argv[2:]
    bad = 0
    for f in files:
        try:
            docs = documents(f)
        except ValueError as e:   # not JSON at all
            bad += 1
            print(f"{f}: not JSON: {e}")
            continue
        errors = [(where, e) for where, doc in docs
                  for e in sorted(validator.iter_errors(doc), key=lambda e: list(e.path))]
        if errors or not docs:
            bad += 1
            for where, e in errors[:5]:
                print(f"{where}: {'/'.join(map(str, e.path))}: {e.message}")
            if not docs:
                print(f"{f}: no JSON lines")
        else:
            print(f"{f}: valid" + (f" ({len(docs)} lines)" if f.endswith(".jsonl") else ""))
    if not files:
        print("schema-check: no files")
    return 1 if bad or not files else 0


sys.exit(main())
