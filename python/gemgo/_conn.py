"""One WebSocket session with gemgo's env server, driven from a private
asyncio loop that runs in a daemon thread, so the synchronous API works
from plain code and from inside a caller's own running loop alike. A
session whose connection breaks opens a new one at the same URL and has
its env replay the episode there (Session.reconnect), as the Go client
envs/remote/client does."""

import asyncio
import base64
import json
import os
import threading
from urllib.parse import urlsplit, urlunsplit

import websockets

DEFAULT_SERVER = "ws://127.0.0.1:8000"
DEFAULT_RECONNECT = 5  # make's reconnect=, the Go client's DefaultReconnect
START_HINT = "start one with `go run ./cmd/envserver -addr 127.0.0.1:8000` (from a clone of gemgo)"


class GemgoError(Exception):
    """An error the server answered, with its OpenEnv code
    (VALIDATION_ERROR, FACTORY_ERROR, EXECUTION_ERROR, ...)."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def server_url(server=None):
    """The WebSocket URL of a server address: the argument, else
    GEMGO_SERVER, else ws://127.0.0.1:8000. http(s) becomes ws(s), and /ws
    is appended unless the path ends with it (as OpenEnv's clients do)."""
    raw = server or os.environ.get("GEMGO_SERVER") or DEFAULT_SERVER
    parts = urlsplit(raw.strip())
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    if scheme not in ("ws", "wss") or not parts.netloc:
        raise ValueError(f"server {raw!r}: want a ws:// or http:// URL such as {DEFAULT_SERVER}")
    path = parts.path.rstrip("/")
    if not path.endswith("/ws"):
        path += "/ws"
    return urlunsplit((scheme, parts.netloc, path, parts.query, ""))


_loop = None
_loop_lock = threading.Lock()


def loop():
    """The package's event loop, started on first use."""
    global _loop
    with _loop_lock:
        if _loop is None:
            lp = asyncio.new_event_loop()
            threading.Thread(target=lp.run_forever, name="gemgo-loop", daemon=True).start()
            _loop = lp
        return _loop


def run(coro):
    """Runs coro on the package's loop and returns its result."""
    return asyncio.run_coroutine_threadsafe(coro, loop()).result()


async def on_loop(coro):
    """Awaits coro on the package's loop from another running loop (an
    asyncio framework's), so the package's sessions serve asyncio code."""
    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, loop()))


def text_of(obs):
    if "text_b64" in obs:  # bytes that are not UTF-8
        return base64.b64decode(obs["text_b64"]).decode("utf-8", "surrogateescape")
    return obs["text"]


def message_data(action):
    try:
        action.encode("utf-8")
        return {"message": action}
    except UnicodeEncodeError:  # surrogate-escaped bytes from text_of
        return {"message_b64": base64.b64encode(action.encode("utf-8", "surrogateescape")).decode("ascii")}


# WebSocket close codes after which a new session may mend the break (as
# the Go client's breakConn): going away (a server draining, as
# cmd/envserver on SIGTERM), abnormal (no close frame: the connection
# dropped), internal error, service restart, try again later (a server at
# capacity), bad gateway. A close for cause (1008 idle, 1009 too big) and a
# normal close are not retried.
RETRYABLE_CLOSES = frozenset((1001, 1006, 1011, 1012, 1013, 1014))


def _close_code(e):
    """The close code a ConnectionClosed received; None when the
    connection dropped without a close frame."""
    rcvd = getattr(e, "rcvd", None)
    return rcvd.code if rcvd is not None else None


class Session:
    """One session: connect, describe, reset, step, sample, close. Its
    coroutines run on the package's loop, one at a time per session.

    A call whose connection closed or failed (the server went away or
    restarts, a proxy dropped the connection) opens a new session at the
    same URL, awaits replay() there (the env's: describe, then the episode
    so far, checked against the first play), and makes the call again: up
    to reconnect times in a row (0 or negative: never), waiting 50 ms·2ⁿ
    (at most 2 s) before the n-th. A connection refused counts as one of
    them. A timeout (a server alive but silent) is not retried: the
    session is broken, and so is one whose replay differed (fail)."""

    def __init__(self, url, timeout, reconnect=DEFAULT_RECONNECT, replay=None):
        self.url = url
        self.timeout = timeout
        self.reconnect = reconnect
        self.replay = replay  # async () -> None, run on each new session
        self.reconnects = 0  # sessions opened again after a broken connection
        self.ws = None
        self.broken = None  # why the session can no longer be used
        self._why = None  # what broke the connection last
        self.retryable = False  # broken is a broken connection that a new session may mend

    async def connect(self):
        if self.broken is not None:
            raise ConnectionError(self.broken)
        try:
            self.ws = await asyncio.wait_for(
                websockets.connect(self.url, max_size=64 << 20, compression=None), self.timeout)
        except (OSError, asyncio.TimeoutError) as e:
            raise ConnectionError(
                f"no gemgo env server answers at {self.url} ({e}): {START_HINT}, "
                f"then set GEMGO_SERVER=ws://127.0.0.1:8000 or pass server=...") from None
        except websockets.exceptions.InvalidStatusCode as e:
            raise ConnectionError(f"{self.url} refused the session ({e}): is it a gemgo env server?") from None
        except websockets.exceptions.InvalidHandshake as e:  # a proxy that closed, say
            raise ConnectionError(
                f"{self.url} did not open a WebSocket session ({e}): is it a gemgo env server?") from None

    async def _send(self, typ, data):
        await asyncio.wait_for(self.ws.send(json.dumps({"type": typ, "data": data})), self.timeout)

    async def _recv(self):
        reply = json.loads(await asyncio.wait_for(self.ws.recv(), self.timeout))
        if reply.get("type") == "error":
            d = reply.get("data") or {}
            raise GemgoError(d.get("code"), d.get("message"))
        return reply.get("type"), reply.get("data")

    async def _once(self, f):
        """Runs one exchange on this connection. A transport failure or a
        timeout leaves the session out of step with the server, so the
        connection is dropped and the session broken; a closed or failed
        connection (not a timeout, not a close for cause) is retryable."""
        if self.broken is not None:
            raise ConnectionError(self.broken)
        if self.ws is None:
            await self.connect()
        try:
            return await f()
        except GemgoError:
            raise
        except (OSError, asyncio.TimeoutError, websockets.exceptions.ConnectionClosed) as e:
            if isinstance(e, asyncio.TimeoutError):
                what, self.retryable = "no answer within %ss" % self.timeout, False
            elif isinstance(e, websockets.exceptions.ConnectionClosed):
                code = _close_code(e)
                what, self.retryable = repr(e), code is None or code in RETRYABLE_CLOSES
            else:
                what, self.retryable = repr(e), True
            self.broken = f"gemgo session with {self.url} broken: {what} (make a new env)"
            self._why = what
            await self.close(abort=True)
            raise ConnectionError(self.broken) from None

    async def _exchange(self, f):
        """Runs one exchange, reconnecting (reconnect times in a row at
        most) while its connection breaks in a way a new session may mend;
        the last failure is raised, with the count of reconnects tried."""
        try:
            return await self._once(f)
        except ConnectionError:
            if not self.retryable:
                raise
        n = 0
        while self.retryable and n < self.reconnect:
            await asyncio.sleep(min(0.05 * 2 ** n, 2.0))
            n += 1
            try:
                await self._reopen()
                return await self._once(f)
            except ConnectionError:
                pass
        if n == 0:
            raise ConnectionError(self.broken)
        raise ConnectionError(f"{self.broken} (after {n} reconnects in a row)")

    async def _reopen(self):
        """A new session at the same URL, with the env replayed on it."""
        await self.close(abort=True)
        self.broken = None
        try:
            await self.connect()
        except ConnectionError as e:  # refused, or nothing listens: one failed reconnect
            self.broken = f"gemgo session with {self.url} broken: {self._why}; a new session: {e}"
            self.retryable = True
            raise
        self.retryable = False
        self.reconnects += 1
        if self.replay is not None:
            await self.replay()

    def fail(self, message):
        """Breaks the session for good (a reconnect cannot mend it) and
        returns the ConnectionError to raise."""
        self.broken, self.retryable = message, False
        if self.ws is not None:
            self.ws.transport.abort()
            self.ws = None
        return ConnectionError(message)

    def _request(self, typ, data):
        async def f():
            await self._send(typ, data)
            return await self._recv()
        return f

    async def call(self, typ, data):
        """Sends typ with data and returns the reply's type and data."""
        return await self._exchange(self._request(typ, data))

    async def call_once(self, typ, data):
        """call on this connection, not retried (a replay's exchanges)."""
        return await self._once(self._request(typ, data))

    async def sample(self, rng):
        """The server env's random action, its random numbers drawn from
        rng (a random.Random), as the Go client's SampleAction does. A
        draw cut by a broken connection is made again on the new session
        with the numbers already drawn, so rng advances as without the cut."""
        drawn = []

        async def f():
            await self._send("sample", {})
            n = 0
            while True:
                typ, data = await self._recv()
                if typ == "rand":
                    if n == len(drawn):
                        drawn.append(rng.getrandbits(64))
                    await self._send("rand", {"value": str(drawn[n])})
                    n += 1
                elif typ == "action":
                    if "message_b64" in data:
                        return text_of({"text_b64": data["message_b64"]})
                    return data["message"]
                else:
                    raise GemgoError("SESSION_ERROR", f"sample: unexpected {typ!r} message")
        return await self._exchange(f)

    async def close(self, abort=False):
        """Ends the session: a closing handshake, or with abort (a broken
        session, whose server may not answer one) the connection dropped.
        A session closed by its env is not reconnected."""
        if not abort:
            self.retryable = False
        if self.ws is not None:
            ws, self.ws = self.ws, None
            try:
                if abort:
                    ws.transport.abort()
                else:
                    await asyncio.wait_for(ws.close(), 5)
            except Exception:
                pass
