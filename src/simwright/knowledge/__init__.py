"""Expert knowledge: markdown modules with typed front matter, and request planning.

Submodules are imported where they are used (``simwright.knowledge.modules``,
``simwright.knowledge.planner.plan``...), so that importing this package stays cheap and
``simwright --help`` never loads pint, YAML or ASE.
"""
