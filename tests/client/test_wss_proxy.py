"""``wss://``: the client through a TLS-terminating reverse proxy, as public Servatrice servers run.

The proxy is a few lines of asyncio here (TLS on one loopback port, plain bytes to Servatrice's
WebSocket port); the certificate is a throw-away self-signed one made with ``openssl``.
"""

from __future__ import annotations

import asyncio
import shutil
import ssl
import subprocess
from pathlib import Path

import pytest
from servatrice import ServatriceServer

from cockatrice_ext.client import FloodLimits, connect

pytestmark = pytest.mark.servatrice


def self_signed(folder: Path) -> tuple[Path, Path]:
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is needed to make a test certificate")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


def test_wss_through_a_tls_proxy(servatrice: ServatriceServer, tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(cert, key)
    client_tls = ssl.create_default_context(cafile=str(cert))

    async def scenario() -> None:
        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", servatrice.ws_port)
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

        proxy = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=server_tls)
        port = proxy.sockets[0].getsockname()[1]
        url = f"wss://127.0.0.1:{port}/servatrice"
        try:
            with pytest.raises(Exception):  # noqa: B017 - an untrusted certificate is refused
                await connect(url, "wss_nobody", reconnect=False, connect_timeout=5)
            async with await connect(
                url, "wss_user", ssl_context=client_tls, reconnect=False, flood_limits=FloodLimits.unlimited()
            ) as client:
                assert client.server is not None and client.server.protocol_version == 14
                room_id = await client.room_id_by_name("Bot room")
                await client.join_room(room_id)
                await client.room_say(room_id, "hello over TLS")
                assert await client.ping() >= 0
        finally:
            proxy.close()
            await proxy.wait_closed()

    asyncio.run(asyncio.wait_for(scenario(), 60))
