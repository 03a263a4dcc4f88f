#!/usr/bin/python3
"""validate-sarif.py SCHEMA FILE...: validate SARIF logs against the
SARIF 2.1.0 JSON schema (tests/schema/sarif-2.1.0.json) with Debian's
python3-jsonschema, formats checked where the checkers are installed
(python3-rfc3987 for URIs).  Prints every error; exit 0 when all are
valid, 1 when one is not, 77 (skip) without jsonschema."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed", file=sys.stderr)
    sys.exit(77)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
    bad = 0
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as f:
            log = json.load(f)
        for err in validator.iter_errors(log):
            bad += 1
            where = "/".join(str(p) for p in err.absolute_path)
            print(f"{path}: /{where}: {err.message}")
    sys.exit(1 if bad else 0)


main()
