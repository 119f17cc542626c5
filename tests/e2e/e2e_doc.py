"""Shared by the end-to-end tests' Python checks (common.bash puts this folder on PYTHONPATH):
a result document checked against its schema with Debian's python3-jsonschema, which
`scripts/setup.sh --test` installs, so that a document the schema refuses fails the test."""
import json

import jsonschema


def validate(doc, schema_path):
    """Raise jsonschema's ValidationError where doc does not pass the schema at schema_path."""
    with open(schema_path) as f:
        jsonschema.validate(doc, json.load(f))
