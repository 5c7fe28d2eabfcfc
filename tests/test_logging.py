"""Logging for cron and systemd: ``-q`` prints nothing but errors, ``-v`` logs to stderr
with timestamps and levels, ``--log-file`` appends every line (the command's output too)
with a timestamp and a level; under systemd the journal's level prefixes."""

from __future__ import annotations

import re

import pytest

from adjudicator.cli import main

STAMPED = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} (DEBUG|INFO|WARNING|ERROR) pbem: ")
ODDS = ["odds", "1 inf", "vs", "1 inf"]


def test_quiet_prints_nothing_on_success(capsys):
    assert main([*ODDS, "-q"]) == 0
    out, err = capsys.readouterr()
    assert (out, err) == ("", "")


def test_quiet_still_prints_errors(capsys, tmp_path):
    assert main(["-q", "show", "-g", str(tmp_path / "nowhere")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("is not a game directory") == 1


def test_log_file_stamps_every_line_including_the_output(capsys, tmp_path):
    log = tmp_path / "pbem.log"
    assert main([*ODDS, "--log-file", str(log)]) == 0
    assert "Attacker wins" in capsys.readouterr().out           # still printed
    assert main(["show", "-g", str(tmp_path / "nowhere"), "--log-file", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.count("is not a game directory") == 1              # not twice on the terminal
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines and all(STAMPED.match(line) for line in lines), lines
    text = "\n".join(lines)
    assert "INFO pbem: pbem odds started" in text
    assert re.search(r"INFO pbem: .*Attacker wins .*25\.0%", text)
    assert "INFO pbem: pbem odds ended with exit status 0" in text
    assert re.search(r"ERROR pbem: .*nowhere is not a game directory", text)
    assert "pbem show ended with exit status 2" in text          # appended, not replaced


def test_verbose_logs_on_stderr_default_does_not(capsys):
    assert main(ODDS) == 0
    assert capsys.readouterr().err == ""
    assert main(["-v", *ODDS]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err and all(STAMPED.match(line) for line in err)
    assert any(line.endswith("INFO pbem: pbem odds started") for line in err)


def test_systemd_journal_gets_level_prefixes(capsys, monkeypatch):
    monkeypatch.setenv("JOURNAL_STREAM", "8:12345")
    assert main([*ODDS, "-v"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert "<6>pbem: pbem odds started" in err


def test_a_commands_own_verbose_flag_keeps_its_meaning(capsys):
    assert main(["cases", "--ruleset", "aa1941", "-v"]) == 0
    out, err = capsys.readouterr()
    assert "pbem cases started" not in err                        # -v: the command's option


def test_unwritable_log_file_is_a_usage_error(capsys, tmp_path):
    assert main([*ODDS, "--log-file", str(tmp_path / "no" / "such" / "dir.log")]) == 2
    err = capsys.readouterr().err
    assert "--log-file" in err and "Traceback" not in err


@pytest.fixture(autouse=True)
def _no_log_handlers_left():
    yield
    from adjudicator.cli.logs import configure
    configure()                                                   # detach any log file
