"""Package discovery that pyproject.toml cannot express: the code lives in desktop/wartable,
and the top-level assets/ and maps/ folders ship inside it as wartable.assets and
wartable.mapdata (with every subfolder), so an installed app finds them."""

from setuptools import find_namespace_packages, find_packages, setup

DATA = {"wartable.assets": "assets", "wartable.mapdata": "maps"}

packages = find_packages("desktop", include=["wartable", "wartable.*"])
package_dir = {"": "desktop"}
for pkg, folder in DATA.items():
    packages.append(pkg)
    package_dir[pkg] = folder
    for sub in find_namespace_packages(folder, exclude=["*__pycache__*"]):
        packages.append(f"{pkg}.{sub}")

setup(packages=packages, package_dir=package_dir)
