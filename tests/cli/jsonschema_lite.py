# SPDX-License-Identifier: GPL-2.0-only
"""A small JSON Schema validator (no pip on the build machines): the subset
the project's schemas use, with draft 2020-12 meaning: type, properties,
required, additionalProperties (false or a schema), items, minItems, enum,
const, minimum, maximum, pattern, oneOf, anyOf, $ref to "#/$defs/NAME"."""
import re

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def errors(value, schema, root=None, path="$"):
    """The list of violations of `schema` by `value` (empty when valid)."""
    root = schema if root is None else root
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        return errors(value, root["$defs"][name], root, path)
    out = []
    t = schema.get("type")
    if t is not None:
        kinds = t if isinstance(t, list) else [t]
        if not any(TYPES[k](value) for k in kinds):
            return [f"{path}: expected {t}, got {type(value).__name__} {value!r:.60}"]
    if "const" in schema and value != schema["const"]:
        out.append(f"{path}: expected {schema['const']!r}, got {value!r:.60}")
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{path}: {value!r:.60} is not one of {schema['enum']}")
    if "minimum" in schema and TYPES["number"](value) and value < schema["minimum"]:
        out.append(f"{path}: {value} is below the minimum {schema['minimum']}")
    if "maximum" in schema and TYPES["number"](value) and value > schema["maximum"]:
        out.append(f"{path}: {value} is above the maximum {schema['maximum']}")
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        out.append(f"{path}: {value!r:.60} does not match {schema['pattern']}")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for k in schema.get("required", []):
            if k not in value:
                out.append(f"{path}: missing required key {k!r}")
        extra = schema.get("additionalProperties", True)
        for k, v in value.items():
            if k in props:
                out += errors(v, props[k], root, f"{path}.{k}")
            elif extra is False:
                out.append(f"{path}: unexpected key {k!r}")
            elif isinstance(extra, dict):
                out += errors(v, extra, root, f"{path}.{k}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            out.append(f"{path}: fewer than {schema['minItems']} items")
        if "items" in schema:
            for i, v in enumerate(value):
                out += errors(v, schema["items"], root, f"{path}[{i}]")
    if "oneOf" in schema:
        ok = [s for s in schema["oneOf"] if not errors(value, s, root, path)]
        if len(ok) != 1:
            out.append(f"{path}: matches {len(ok)} of the oneOf schemas, not exactly one: {value!r:.100}")
    if "anyOf" in schema:
        if all(errors(value, s, root, path) for s in schema["anyOf"]):
            out.append(f"{path}: matches none of the anyOf schemas: {value!r:.100}")
    return out


def self_test():
    """The validator rejects what it should (run by outputs_test.py)."""
    s = {"type": "object", "required": ["a"], "additionalProperties": False,
         "properties": {"a": {"type": "integer", "minimum": 0}, "b": {"enum": ["x"]}}}
    assert not errors({"a": 1}, s)
    assert errors({"a": -1}, s) and errors({}, s) and errors({"a": 1, "c": 0}, s)
    assert errors({"a": 1, "b": "y"}, s) and errors({"a": True}, s) and errors([], s)
    one = {"oneOf": [{"properties": {"ph": {"const": "X"}}, "required": ["ph"]},
                     {"properties": {"ph": {"const": "C"}}, "required": ["ph"]}]}
    assert not errors({"ph": "X"}, one) and errors({"ph": "B"}, one)
