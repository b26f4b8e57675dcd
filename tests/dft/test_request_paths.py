"""pw.x variables that name files or folders are refused when a request is validated."""

from __future__ import annotations

import pytest
from pydantic import ValidationError as PydanticValidationError

from simwright.dft.request import DftRequest

BULK_SI = {"kind": "bulk", "name": "Si"}


@pytest.mark.parametrize(
    ("namelist", "name"),
    [
        ("control", "wfcdir"),
        ("control", "outdir"),
        ("control", "prefix"),
        ("control", "pseudo_dir"),
        ("CONTROL", "Input_XML_Schema_File"),
    ],
)
def test_path_variables_are_refused_before_any_run(namelist: str, name: str) -> None:
    with pytest.raises(PydanticValidationError) as caught:
        DftRequest.model_validate(
            {"structure": BULK_SI, "overrides": {namelist: {name: "../../elsewhere"}}}
        )
    message = str(caught.value)
    assert name in message
    assert "simwright sets" in message


def test_other_overrides_are_still_accepted() -> None:
    request = DftRequest.model_validate(
        {"structure": BULK_SI, "overrides": {"electrons": {"mixing_beta": 0.3}}}
    )
    assert request.overrides == {"electrons": {"mixing_beta": 0.3}}


@pytest.mark.parametrize("name", ["../Si.upf", "/usr/share/espresso/pseudo/Si.pz-vbc.UPF", ""])
def test_pseudopotential_names_must_be_plain_file_names(name: str) -> None:
    with pytest.raises(PydanticValidationError, match="pseudopotential"):
        DftRequest.model_validate({"structure": BULK_SI, "pseudopotentials": {"Si": name}})
