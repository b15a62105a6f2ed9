"""A throw-away MariaDB server for Servatrice's SQL mode (registered users, judges).

Servatrice only keeps a disconnected player's seat, and only grants judge rights, to
registered users, which need its MySQL database. This harness starts a private MariaDB on a
Unix socket in a temporary folder, loads Servatrice's own schema (``servatrice.sql``, shipped
next to the binary under ``share/servatrice``) and inserts users with Servatrice's password
hash. Servatrice reaches it through ``MYSQL_UNIX_PORT`` with ``hostname=localhost``.

Everything here skips cleanly (``MariaDBUnavailable``) when the programs are not installed.
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from servatrice import ServatriceConfig

ADMIN_BITS = {"user": 0, "admin": 1, "moderator": 2, "judge": 4}


class MariaDBUnavailable(RuntimeError):
    """MariaDB, its installer or Servatrice's schema is missing on this machine."""


def servatrice_password_hash(password: str, salt: str = "cockatriceextsal") -> str:
    """Servatrice's stored form: salt + base64(sha512 applied 1000 times to salt+password)."""
    digest = (salt + password).encode()
    for _ in range(1000):
        digest = hashlib.sha512(digest).digest()
    return salt + base64.b64encode(digest).decode()


def find_schema(servatrice_bin: str) -> Path:
    """Locate ``servatrice.sql`` for a Servatrice binary ($SERVATRICE_SQL overrides)."""
    explicit = os.environ.get("SERVATRICE_SQL")
    candidates = [Path(explicit)] if explicit else []
    real = Path(os.path.realpath(servatrice_bin))
    candidates += [
        real.parent.parent / "share" / "servatrice" / "servatrice.sql",
        real.parent / "servatrice.sql",
        real.parent.parent.parent / "servatrice" / "servatrice.sql",
    ]
    for path in candidates:
        if path.is_file():
            return path
    raise MariaDBUnavailable(f"servatrice.sql not found near {servatrice_bin} (set SERVATRICE_SQL)")


@dataclass
class MariaDB:
    """One private MariaDB server holding a Servatrice database."""

    workdir: Path
    schema: Path
    db_user: str = "servatrice"
    db_password: str = "servatrice-test"
    database: str = "servatrice"
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def socket(self) -> Path:
        return self.workdir / "mysqld.sock"

    def start(self) -> None:
        server = shutil.which("mariadbd") or shutil.which("mysqld")
        installer = shutil.which("mariadb-install-db") or shutil.which("mysql_install_db")
        client = shutil.which("mariadb") or shutil.which("mysql")
        if not (server and installer and client):
            raise MariaDBUnavailable("mariadbd, mariadb-install-db or mariadb not on PATH")
        if not Path("/usr/lib/x86_64-linux-gnu/qt6/plugins/sqldrivers/libqsqlmysql.so").exists() and not (
            os.environ.get("SERVATRICE_SQL_DRIVER_OK")
        ):
            raise MariaDBUnavailable("Qt's MySQL driver (libqt6sql6-mysql) is not installed")
        self._client = client
        data = self.workdir / "data"
        self.workdir.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                installer,
                "--no-defaults",
                f"--datadir={data}",
                "--user=root",
                "--auth-root-authentication-method=normal",
            ],
            check=True,
            capture_output=True,
        )
        log = (self.workdir / "mariadb.log").open("wb")
        self.process = subprocess.Popen(
            [
                server,
                "--no-defaults",
                f"--datadir={data}",
                f"--socket={self.socket}",
                "--skip-networking",
                "--sql-mode=NO_ENGINE_SUBSTITUTION",  # Servatrice relies on non-strict inserts
                "--user=root",
                f"--pid-file={self.workdir / 'mysqld.pid'}",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while not self.socket.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise MariaDBUnavailable(f"mariadbd did not start; see {self.workdir / 'mariadb.log'}")
            time.sleep(0.1)
        self.sql(
            f"CREATE DATABASE {self.database};"
            f"CREATE USER '{self.db_user}'@'localhost' IDENTIFIED BY '{self.db_password}';"
            f"GRANT ALL ON {self.database}.* TO '{self.db_user}'@'localhost';",
            database=None,
        )
        self.sql(self.schema.read_text())

    def sql(self, statements: str, *, database: str | None = "servatrice") -> str:
        args = [self._client, "--no-defaults", "-S", str(self.socket), "-uroot", "--batch"]
        if database:
            args.append(database)
        done = subprocess.run(args, input=statements.encode(), capture_output=True, check=True)
        return done.stdout.decode()

    def add_user(self, name: str, password: str, *, level: str = "user") -> None:
        """Register ``name`` (active) with Servatrice's password hash and the given level (a name
        registered by an earlier test of the session gets this password and level)."""
        admin = ADMIN_BITS[level]
        hashed = servatrice_password_hash(password)
        safe = name.replace("'", "''")
        values = {
            "admin": str(admin),
            "name": f"'{safe}'",
            "realname": "''",
            "password_sha512": f"'{hashed}'",
            "email": "''",
            "country": "''",
            "avatar_bmp": "''",
            "registrationDate": "NOW()",
            "active": "1",
            "clientid": "''",
            "adminnotes": "''",
            "privlevel": "'NONE'",
            "privlevelStartDate": "NOW()",
            "privlevelEndDate": "NOW()",
        }
        columns = [name for name in values if name.lower() in self._user_columns()]  # older schemas lack some
        self.sql(
            f"INSERT INTO cockatrice_users ({', '.join(columns)}) VALUES"
            f" ({', '.join(values[column] for column in columns)})"
            f" ON DUPLICATE KEY UPDATE admin = {admin}, password_sha512 = '{hashed}';"
        )

    def _user_columns(self) -> set[str]:
        """The columns of this schema's users table (Servatrice 2.9's has no ``adminnotes``), lower-cased."""
        out = self.sql(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = 'servatrice' AND table_name = 'cockatrice_users';"
        )
        return {line.strip().lower() for line in out.splitlines()[1:] if line.strip()}

    def servatrice_ini(self) -> str:
        """The ``[database]`` section (plus SQL authentication) for Servatrice's ini."""
        return (
            "[authentication]\nmethod=sql\nregonly=false\n\n"
            "[database]\ntype=mysql\nprefix=cockatrice\nhostname=localhost\n"
            f"database={self.database}\nuser={self.db_user}\npassword={self.db_password}\n"
        )

    def servatrice_env(self) -> dict[str, str]:
        """Environment for Servatrice so that ``hostname=localhost`` reaches this server."""
        return {"MYSQL_UNIX_PORT": str(self.socket)}

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def sql_config(database: MariaDB, **options: object) -> ServatriceConfig:
    """A Servatrice configuration in SQL mode (registered users, judges) over ``database``."""
    from servatrice import ServatriceConfig

    return ServatriceConfig(
        sql_ini=database.servatrice_ini(),
        env=tuple(database.servatrice_env().items()),
        **options,  # type: ignore[arg-type]
    )
