"""Attack round on files written: what a refused ``--out`` says, and that nothing is left
half-written."""
from conftest import run_cli


def test_a_dangling_link_names_the_missing_folder_of_its_target(capsys, tmp_path):
    """``--out ln/dangling.md`` (a link to ``nowhere/x.md``) said "folder 'ln' does not exist"
    of a folder that is there."""
    folder = tmp_path / "ln"
    folder.mkdir()
    (folder / "dangling.md").symlink_to("nowhere/x.md")
    code, out, err = run_cli(capsys, "pmf", "uwr", "dice=2", "--out", str(folder / "dangling.md"),
                             exits=True)
    assert code == 2 and not out
    assert f"folder {str(folder / 'nowhere')!r} does not exist (it is a link to 'nowhere/x.md')" in err
    assert f"folder {str(folder)!r} does not exist" not in err
    assert (folder / "dangling.md").is_symlink() and not (folder / "nowhere").exists()


def test_a_missing_folder_is_still_named_as_given(capsys, tmp_path):
    code, _, err = run_cli(capsys, "pmf", "uwr", "dice=2", "--out", str(tmp_path / "no" / "x.md"),
                           exits=True)
    assert code == 2 and f"folder {str(tmp_path / 'no')!r} does not exist; allowed:" in err
