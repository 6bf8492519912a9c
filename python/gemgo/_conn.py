"""One WebSocket session with gemgo's env server, driven from a private
asyncio loop that runs in a daemon thread, so the synchronous API works
from plain code and from inside a caller's own running loop alike."""

import asyncio
import base64
import json
import os
import threading
from urllib.parse import urlsplit, urlunsplit

import websockets

DEFAULT_SERVER = "ws://127.0.0.1:8000"
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


class Session:
    """One session: connect, describe, reset, step, sample, close. Its
    coroutines run on the package's loop, one at a time per session."""

    def __init__(self, url, timeout):
        self.url = url
        self.timeout = timeout
        self.ws = None
        self.broken = None  # why the session can no longer be used

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

    async def _send(self, typ, data):
        await asyncio.wait_for(self.ws.send(json.dumps({"type": typ, "data": data})), self.timeout)

    async def _recv(self):
        reply = json.loads(await asyncio.wait_for(self.ws.recv(), self.timeout))
        if reply.get("type") == "error":
            d = reply.get("data") or {}
            raise GemgoError(d.get("code"), d.get("message"))
        return reply.get("type"), reply.get("data")

    async def _exchange(self, f):
        """Runs one exchange; a transport failure or a timeout leaves the
        session out of step with the server, so it is dropped and every
        later call raises the first error."""
        if self.ws is None:
            await self.connect()
        try:
            return await f()
        except GemgoError:
            raise
        except (OSError, asyncio.TimeoutError, websockets.exceptions.ConnectionClosed) as e:
            what = "no answer within %ss" % self.timeout if isinstance(e, asyncio.TimeoutError) else repr(e)
            self.broken = f"gemgo session with {self.url} broken: {what} (make a new env)"
            await self.close(abort=True)
            raise ConnectionError(self.broken) from None

    async def call(self, typ, data):
        async def f():
            await self._send(typ, data)
            return await self._recv()
        return await self._exchange(f)

    async def sample(self, rng):
        """The server env's random action, its random numbers drawn from
        rng (a random.Random), as the Go client's SampleAction does."""
        async def f():
            await self._send("sample", {})
            while True:
                typ, data = await self._recv()
                if typ == "rand":
                    await self._send("rand", {"value": str(rng.getrandbits(64))})
                elif typ == "action":
                    if "message_b64" in data:
                        return text_of({"text_b64": data["message_b64"]})
                    return data["message"]
                else:
                    raise GemgoError("SESSION_ERROR", f"sample: unexpected {typ!r} message")
        return await self._exchange(f)

    async def close(self, abort=False):
        """Ends the session: a closing handshake, or with abort (a broken
        session, whose server may not answer one) the connection dropped."""
        if self.ws is not None:
            ws, self.ws = self.ws, None
            try:
                if abort:
                    ws.transport.abort()
                else:
                    await asyncio.wait_for(ws.close(), 5)
            except Exception:
                pass
