#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# schema-check SCHEMA FILE...: validates each JSON FILE against the JSON
# Schema SCHEMA (Debian's python3-jsonschema); prints one line a file and
# exits 1 if any is invalid or none was given.
import json, sys
import jsonschema

def main():
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    files = sys.argv[2:]
    bad = 0
    for f in files:
        errors = sorted(validator.iter_errors(json.load(open(f))), key=lambda e: list(e.path))
        if errors:
            bad += 1
            for e in errors[:5]:
                print(f"{f}: {'/'.join(map(str, e.path))}: {e.message}")
        else:
            print(f"{f}: valid")
    if not files:
        print("schema-check: no files")
    return 1 if bad or not files else 0

sys.exit(main())
