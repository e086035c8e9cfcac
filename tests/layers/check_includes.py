"""Each layer includes only the layers before it (docs/design.md, Layers), in the order
src/CMakeLists.txt adds them; the front end and the CLI, side by side on the session layer, include
nothing of each other. Usage: check_includes.py SOURCE_DIR. Exit 1 naming each include that breaks it."""
import os
import re
import sys

root = sys.argv[1]
with open(os.path.join(root, "src", "CMakeLists.txt")) as f:
    order = re.search(r"foreach\(layer ([^)]*)\)", f.read()).group(1).split()
rank = {layer: i for i, layer in enumerate(order)}
side_by_side = {("frontend", "cli"), ("cli", "frontend")}
include = re.compile(r'^\s*#\s*include\s+"aicore/(\w+)/')
quoted = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
generated = {"kernel_build_config.inc"}  # written by CMake into the build folder
bad = []
for layer in order:
    for folder in (os.path.join(root, "src", layer), os.path.join(root, "include", "aicore", layer)):
        for dirpath, _, files in os.walk(folder):
            for name in sorted(files):
                if not name.endswith((".cpp", ".hpp", ".inc")):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8") as f:
                    for n, line in enumerate(f, 1):
                        where = f"{os.path.relpath(path, root)}:{n}"
                        q = quoted.match(line)
                        if (q and "/" not in q.group(1) and q.group(1) not in generated
                                and not os.path.exists(os.path.join(dirpath, q.group(1)))):
                            bad.append(f"{where}: includes {q.group(1)}, a private header of another folder")
                        if q and q.group(1).startswith("../"):
                            bad.append(f"{where}: includes another folder's file {q.group(1)}")
                        m = include.match(line)
                        if not m:
                            continue
                        used = m.group(1)
                        if used not in rank:
                            bad.append(f"{where}: includes aicore/{used}, which is no layer")
                        elif rank[used] > rank[layer] or (layer, used) in side_by_side:
                            bad.append(f"{where}: layer {layer} includes aicore/{used}")
for b in bad:
    print(b)
print(f"{len(bad)} include(s) across the layers' order ({' < '.join(order)})")
sys.exit(1 if bad else 0)
