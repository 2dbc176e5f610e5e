"""Writes the service's OpenAPI document with its `x-rules` applied, for validators (SchemathesisTests).

The document keeps the rules across fields of a schema (a background session needs its identifier, ...)
in `x-rules`, JSON Schema keywords that code generators skip, so that they see every property. A
validator must apply them: each `x-rules` object's keywords are merged into the schema that carries it
(a keyword the schema has already, `allOf` or `properties` say, goes in as one more `allOf` member), so
schemathesis checks the rules as it did when they were written in the schemas themselves.

Usage: openapi_rules.py --url http://127.0.0.1:PORT/openapi.yaml --output FILE
"""

import argparse
import urllib.request

import yaml


def apply_rules(node):
    """Merges every `x-rules` below `node` (included) into its schema, in place."""
    if isinstance(node, list):
        for item in node:
            apply_rules(item)
        return
    if not isinstance(node, dict):
        return
    rules = node.pop("x-rules", None)
    for value in node.values():
        apply_rules(value)
    if rules is None:
        return
    apply_rules(rules)
    for keyword, value in rules.items():
        if keyword not in node:
            node[keyword] = value
        elif keyword == "allOf":
            node["allOf"].extend(value)
        else:
            node.setdefault("allOf", []).append({keyword: value})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--output", required=True)
    arguments = parser.parse_args()
    # The service is on loopback: no proxy from the environment.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(arguments.url, timeout=30) as response:
        document = yaml.safe_load(response.read())
    apply_rules(document)
    with open(arguments.output, "w", encoding="utf-8") as output:
        yaml.safe_dump(document, output, sort_keys=False, allow_unicode=True)


if __name__ == "__main__":
    main()
