#!/usr/bin/env python3
"""Fails when a Swift target imports a module its Package.swift entry does not declare.

    tools/check_imports.py   (run by `make lint`, so by `make test`)

SwiftPM lets a target import a module it only reaches through another target's dependencies; the build
then works by accident of order, and the module picture in docs/ARCHITECTURE.md stops being the code's.
This reads `swift package dump-package`, then every `import` line of each target's sources (any access
level or attribute, `import struct M.T` too), and names each module that is neither the target, a
declared target or product dependency, nor one of the toolchain's.
"""
import json
import os
import re
import subprocess
import sys

TOOLCHAIN = {
    "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
    "Dispatch", "Glibc", "Musl", "Darwin", "Android", "WinSDK", "Synchronization", "_Concurrency",
    "Testing", "XCTest", "RegexBuilder", "Observation", "os",
}
IMPORT = re.compile(
    r"^\s*(?:@[\w()]+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    package = json.loads(subprocess.run(
        ["swift", "package", "dump-package"], cwd=root, check=True, capture_output=True, text=True).stdout)
    problems = []
    for target in package["targets"]:
        if target["type"] in ("system", "binary", "plugin", "macro"):
            continue
        declared = {target["name"]}
        for dependency in target["dependencies"]:
            (kind, value), = dependency.items()
            declared.add(value[0])  # byName, target, product: the name is the module's here
        default = "Tests" if target["type"] == "test" else "Sources"
        directory = os.path.join(root, target.get("path") or os.path.join(default, target["name"]))
        for folder, _, files in os.walk(directory):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as source:
                    in_literal = False  # inside a multi-line string (a script's `import` is not Swift's)
                    for number, line in enumerate(source, 1):
                        if line.count('"""') % 2 == 1:
                            in_literal = not in_literal
                            continue
                        match = None if in_literal else IMPORT.match(line)
                        if match and match.group(1) not in declared | TOOLCHAIN:
                            problems.append(f"{os.path.relpath(path, root)}:{number}: {target['name']} imports "
                                            f"{match.group(1)}, which Package.swift does not declare for it")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
