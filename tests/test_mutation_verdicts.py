"""bench/mutation_verdicts.py: a mutation run's verdicts saved into the repository and written back
into a new stage as the very ``.meta`` contents mutmut wrote (exit codes and function hashes)."""

import importlib.util
import json
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def verdicts_module():
    spec = importlib.util.spec_from_file_location("mutation_verdicts", BENCH / "mutation_verdicts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def meta(codes: dict, hashes: dict) -> str:
    """A ``.meta`` file as mutmut 3.8 writes it."""
    return json.dumps({"exit_code_by_key": codes, "hash_by_function_name": hashes, "type_check_error_by_key": {},
                       "durations_by_key": {key: 0.5 for key, code in codes.items() if code is not None},
                       "estimated_durations_by_key": {}}, indent=4)


def test_saved_verdicts_come_back_as_mutmut_wrote_them(tmp_path):
    verdicts = verdicts_module()
    ran, fresh, kept = tmp_path / "ran", tmp_path / "fresh", tmp_path / "kept.json"
    files = {
        "normgeo/a.py.meta": ({"normgeo.a.x_f__mutmut_1": 1, "normgeo.a.x_f__mutmut_2": 0,
                               "normgeo.a.x_f__mutmut_3": None, "normgeo.a.xǁCǁm__mutmut_1": 36,
                               "normgeo.a.xǁCǁm__mutmut_2": 33},
                              {"x_f": "0123456789ab", "xǁCǁm": "ba9876543210"}),
        "normgeo/sub/b.py.meta": ({"normgeo.sub.b.x_g__mutmut_1": -11}, {"x_g": "aaaaaaaaaaaa"}),
        "normgeo/untested.py.meta": ({}, {}),
        "scenes/kit/c.py.meta": ({"scenes.kit.c.x_h__mutmut_1": 1}, {"x_h": "bbbbbbbbbbbb"}),
    }
    for relative, (codes, hashes) in files.items():
        (ran / "mutants" / relative).parent.mkdir(parents=True, exist_ok=True)
        (ran / "mutants" / relative).write_text(meta(codes, hashes), encoding="utf-8")

    assert verdicts.save(ran, ["normgeo"], kept) == 5  # tested mutants of the folder asked for only
    assert verdicts.restore(fresh, kept) == 5
    written = sorted(path.relative_to(fresh / "mutants").as_posix() for path in (fresh / "mutants").rglob("*.meta"))
    assert written == ["normgeo/a.py.meta", "normgeo/sub/b.py.meta"]
    for relative in written:
        back = json.loads((fresh / "mutants" / relative).read_text(encoding="utf-8"))
        codes, hashes = files[relative]
        assert back["exit_code_by_key"] == codes and back["hash_by_function_name"] == hashes
