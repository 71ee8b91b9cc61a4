"""Cluster addresses and servers that are not Dask schedulers: addresses
refused before any connection, hosts and ports that fail at once, a port
that accepts and never answers, a web server.  No cluster is started, so
these run in make test's parallel pass (most of their time is a wait).

Every process is real (the `variantkit` command as a subprocess against
servers on 127.0.0.1), so exit statuses and messages are the ones users
see, but for the port that never answers, whose 10 s wait is cut short
in this process; every wait is bounded."""

from __future__ import annotations

import socket
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from click.testing import CliRunner
from test_cluster import variantkit_cli

from variantkit.analysis import cluster
from variantkit.analysis.address import AddressError, parse_address
from variantkit.cli import cli


def clean(done: subprocess.CompletedProcess[str] | tuple[str, str]) -> str:
    """Both outputs, checked for what must never be shown."""
    out, err = (done.stdout, done.stderr) if isinstance(done, subprocess.CompletedProcess) \
        else done
    for text in (out, err):
        assert "Traceback" not in text and "internal error" not in text, text
        assert "NoneType" not in text, text
    return err


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    err = clean(done)
    assert done.returncode == 1, err
    (line,) = err.splitlines()
    assert line.startswith("error: ")
    return line


# --- addresses ------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "says"), [
    ("", "--cluster needs the address of a Dask scheduler"),
    ("tcp://", "has no host"),
    ("tcp://127.0.0.1", "has no port"),
    ("tcp://127.0.0.1:0", "the port must be a number from 1 to 65535, not '0'"),
    ("tcp://127.0.0.1:65536", "the port must be a number from 1 to 65535"),
    ("tcp://[::1]:x", "the port must be a number from 1 to 65535, not 'x'"),
    ("tcp://[::1", "an IPv6 address must end with ']'"),
    ("tcp://[zz]:1", "'zz' is not an IPv6 address"),
    ("tcp://::1:8786", "write an IPv6 address in brackets"),
    ("inproc://abc", "inproc:// reaches only a scheduler inside this same process"),
    ("tls://127.0.0.1:8786", "tls:// needs certificates"),
    ("ucx://127.0.0.1:8786", "ucx:// needs the UCX library"),
    ("http://127.0.0.1:8787", "http:// is a web address"),
    ("gopher://x:1", "gopher:// is not a transport variantkit can use"),
    ("garbage here", "is not an address"),
    ("tcp://ex\u00e4mple:1", "is not an address"),
    ("tcp://-bad-:1", "'-bad-' is not a host name or an IP address"),
    ("x" * 100_000, "is too long for an address (at most 300 characters)"),
])
def test_unusable_addresses_are_refused_before_connecting(text: str, says: str) -> None:
    with pytest.raises(AddressError) as caught:
        parse_address(text)
    message = str(caught.value)
    assert says in message
    assert len(message) < 400 and "\n" not in message


@pytest.mark.parametrize(("text", "uri"), [
    ("tcp://127.0.0.1:8786", "tcp://127.0.0.1:8786"),
    ("127.0.0.1:8786", "tcp://127.0.0.1:8786"),
    ("TCP://node-1.example.org:1", "tcp://node-1.example.org:1"),
    ("tcp://[::1]:8786", "tcp://[::1]:8786"),
    ("[0:0::1]:8786", "tcp://[::1]:8786"),
])
def test_tcp_addresses_are_accepted(text: str, uri: str) -> None:
    assert parse_address(text).uri == uri


@pytest.mark.parametrize("address", ["", "tls://127.0.0.1:8786", "ucx://127.0.0.1:8786",
                                     "inproc://x", "tcp://[::1]:x", "tcp://127.0.0.1:0"])
def test_the_commands_refuse_them_in_one_line(address: str) -> None:
    line = one_error_line(variantkit_cli("perft", "chess", "2", "--cluster", address))
    assert "tcp://" in line     # each message shows the form that works


def test_dask_s_own_address_setting_is_checked_too() -> None:
    line = one_error_line(variantkit_cli(
        "analyze", "chess", "--games", "1", env={"DASK_SCHEDULER_ADDRESS": "tls://10.0.0.1:1"}))
    assert line.startswith("error: Dask's scheduler-address setting (DASK_SCHEDULER_ADDRESS) "
                           "'tls://10.0.0.1:1': tls:// needs certificates")


def test_a_connect_timeout_setting_that_is_not_a_duration_is_said() -> None:
    line = one_error_line(variantkit_cli(
        "perft", "chess", "2", "--cluster", "127.0.0.1:1",
        env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "-5s"}))
    assert line == ("error: Dask's distributed.comm.timeouts.connect setting '-5s' is not a "
                    "positive duration (such as 5s)")


def test_an_unknown_host_name_fails_at_once() -> None:
    line = one_error_line(variantkit_cli("perft", "chess", "2", "--cluster",
                                         "tcp://no-scheduler.invalid:8786"))
    assert line.startswith("error: cannot reach the cluster at tcp://no-scheduler.invalid:8786: "
                           "the host name 'no-scheduler.invalid' is not known")


def test_a_port_that_refuses_fails_at_once() -> None:
    with socket.socket() as closed:   # a port just freed: nothing listens there
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    line = one_error_line(variantkit_cli("perft", "chess", "2", "--cluster",
                                         f"127.0.0.1:{port}"))
    assert line == (f"error: cannot reach the cluster at tcp://127.0.0.1:{port}: "
                    f"nothing listens on port {port} (connection refused)")


# --- servers that are not schedulers ----------------------------------------------------


@contextmanager
def fake_server(answer: bytes | None) -> Iterator[int]:
    """A server on 127.0.0.1 that accepts every connection, reads what comes,
    and then sends `answer` and closes, or, with None, never answers."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:   # the listener was closed: the test is over
                return
            held.append(connection)
            if answer is not None:
                connection.settimeout(5)
                try:
                    connection.recv(65536)
                    connection.sendall(answer)
                except OSError:
                    pass
                connection.close()
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        # A close alone leaves the thread blocked in accept(); a shutdown wakes it.
        listener.shutdown(socket.SHUT_RDWR)
        listener.close()
        for connection in held:
            connection.close()
        thread.join(10)


HTTP_ANSWER = (b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\n"
               b"Content-Length: 0\r\nConnection: close\r\n\r\n")


def test_a_port_that_never_answers_is_an_error_after_the_handshake_wait(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In this process, with the wait cut from its 10 s to a tenth of a
    second (what is tested is that the wait ends, and how it is said)."""
    monkeypatch.setattr(cluster, "HANDSHAKE_WAIT", 0.1)
    with fake_server(None) as port:
        done = CliRunner().invoke(cli, ["perft", "chess", "2", "--cluster",
                                        f"tcp://127.0.0.1:{port}"])
    assert done.exit_code == 1, done.output
    assert "Traceback" not in done.output
    assert done.output.strip().splitlines()[-1] == (
        f"error: the server at tcp://127.0.0.1:{port} accepted the connection but did not "
        f"answer as a Dask scheduler within 0.1 s: is it one?")


def test_a_web_server_is_not_taken_for_a_scheduler() -> None:
    with fake_server(HTTP_ANSWER) as port:
        for command in (["perft", "chess", "2"], ["analyze", "chess", "--games", "1"]):
            done = variantkit_cli(*command, "--cluster", f"127.0.0.1:{port}")
            assert one_error_line(done).startswith(
                f"error: the server at tcp://127.0.0.1:{port} does not answer as a Dask "
                "scheduler does (is it another kind of server?)")
