"""A Streamlit session without a browser: the app's own websocket protocol, on loopback only.

The browser's part of the conversation, as recorded from headless Chromium on 1.67:

1. open ``ws://host/_stcore/stream`` with subprotocol ``streamlit``;
2. send ``BackMsg.rerun_script`` (a ``ClientState``: page name, widget states, the hashes
   of the large messages it already holds);
3. receive ``ForwardMsg``s -- ``new_session``, ``delta`` (one element at a ``delta_path``),
   ``ref_hash`` (an element the client holds already), ``script_finished``.

Widget ids come from the deltas (``$$ID-<hash>-<key>``); a widget change is a rerun whose
``widget_states`` carry the new value, encoded as the browser encodes it (``KINDS``).

The server itself is started by `tests.support.server.serving`.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from dataclasses import dataclass, field

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.NumberInput_pb2 import NumberInput
from streamlit.proto.Slider_pb2 import Slider
from streamlit.proto.WidgetStates_pb2 import WidgetState

FINISHED_OK = ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY
FRAGMENT_OK = ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY


def _set_string(w: WidgetState, v) -> None:
    w.string_value = v


def _set_string_array(w: WidgetState, v) -> None:
    w.string_array_value.data[:] = [str(v)]


def _set_double_array(w: WidgetState, v) -> None:
    w.double_array_value.data[:] = [float(v)]


def _set_int(w: WidgetState, v) -> None:
    w.int_value = int(v)


def _set_double(w: WidgetState, v) -> None:
    w.double_value = float(v)


def _set_bool(w: WidgetState, v) -> None:
    w.bool_value = bool(v)


def _set_trigger(w: WidgetState, v) -> None:
    w.trigger_value = True


# Element type -> how the browser encodes that widget's value (seen in recorded frames).
KINDS = {
    "text_area": _set_string,
    "text_input": _set_string,
    "radio": _set_string,  # the option's label as shown
    "selectbox": _set_string,  # the option's label as shown
    "select_slider": _set_string_array,  # the option's label as shown
    "slider": _set_double_array,
    "number_input": _set_int,
    "number_float": _set_double,  # a number_input of floats
    "checkbox": _set_bool,  # st.toggle is a checkbox element
    "button": _set_trigger,
}


@dataclass
class Run:
    """One script run as the client saw it."""

    seconds: float
    status: int | None  # ScriptFinishedStatus, None if it never finished
    elements: dict[tuple[int, ...], object]  # delta_path -> Element proto
    exceptions: list[str]

    @property
    def ok(self) -> bool:
        return self.status in (FINISHED_OK, FRAGMENT_OK) and not self.exceptions

    def of_type(self, kind: str) -> list:
        """The elements of one type (e.g. "plotly_chart", "dataframe"), in delta-path order."""
        found = sorted(self.elements.items())
        return [getattr(e, kind) for _, e in found if e.WhichOneof("type") == kind]


@dataclass
class Session:
    """One learner's tab, as the server sees it."""

    base: str  # http://127.0.0.1:port
    page: str  # "Overview", "Multi-head", "" for the home page
    timeout_s: float = 120.0
    ws: object = None
    states: dict[str, WidgetState] = field(default_factory=dict)  # id -> last value sent
    decoder: Decoder = field(default_factory=lambda: Decoder())
    cookies: dict[str, str] = field(default_factory=dict)  # e.g. a load balancer's, as set

    async def connect(self) -> Run:
        """Open the websocket and run the page. Called again after the connection is lost,
        it reconnects as the browser does: the cookies it holds (a load balancer's names the
        replica; a dead one's is replaced by the live one's), the page, the query string the
        app last set (its URL mirror) and the widget states it last sent."""
        url = self.base.replace("http://", "ws://") + "/_stcore/stream"
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        self.ws = await websockets.connect(  # a browser sends no websocket pings either
            url,
            subprotocols=["streamlit"],
            max_size=64 * 2**20,
            open_timeout=self.timeout_s,
            ping_interval=None,
            additional_headers={"Cookie": cookie} if cookie else None,
        )
        for set_cookie in self.ws.response.headers.get_all("Set-Cookie"):
            name, _, value = set_cookie.split(";")[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        return await self.rerun()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def set(self, key: str, value) -> Run:
        """Change one widget, as a learner would, and wait for the rerun it causes."""
        t0 = await self.send(key, value)
        return await asyncio.wait_for(self._collect(t0), self.timeout_s)

    def stage(self, key: str, value) -> None:
        """Change one widget without a rerun, as typing into a form's box does: it is sent
        with the next rerun (a form's submit button)."""
        wid, kind = self.widgets[key]
        w = WidgetState(id=wid)
        KINDS[kind](w, value)
        self.states[wid] = w

    async def send(self, key: str, value) -> float:
        """Change one widget without waiting; returns the time sent (for `finish`)."""
        wid, kind = self.widgets[key]
        w = WidgetState(id=wid)
        KINDS[kind](w, value)
        self.states[wid] = w
        t0 = await self._send_rerun(self.decoder.fragments.get(key, ""))
        if kind == "button":
            del self.states[wid]  # a trigger is true for one run only
        return t0

    async def wait_for(self, kind: str | None, limit_s: float = 60.0):
        """Read frames until an element of `kind` (e.g. "spinner"; None: any element) arrives
        in the current run.

        Returns the element; raises TimeoutError at the deadline, RuntimeError if the run
        finishes without one.
        """

        async def read():
            while True:
                els = [*self.decoder.elements.values(), *self.decoder.transients]
                seen = [e for e in els if kind in (None, e.WhichOneof("type"))]
                if seen:
                    return seen[-1]
                if self.decoder.feed(await self.ws.recv()) is not None:
                    raise RuntimeError(f"the run finished without a {kind} element")

        return await asyncio.wait_for(read(), limit_s)

    async def finish(self, t0: float) -> Run:
        """Wait for the run started at `t0` (by `send`) to finish."""
        return await asyncio.wait_for(self._collect(t0), self.timeout_s)

    async def rerun(self) -> Run:
        t0 = await self._send_rerun()
        return await asyncio.wait_for(self._collect(t0), self.timeout_s)

    async def _send_rerun(self, fragment_id: str = "") -> float:
        msg = BackMsg()
        cs = msg.rerun_script
        cs.fragment_id = fragment_id  # a widget in an st.fragment reruns only that fragment
        cs.page_name = self.page
        cs.page_script_hash = self.page_hash
        cs.query_string = self.decoder.query_string  # the URL as the app last set it
        cs.widget_states.widgets.extend(self.states.values())
        cs.cached_message_hashes.extend(self.decoder.cache.keys())
        cs.context_info.timezone = "UTC"
        cs.context_info.locale = "en-US"
        cs.context_info.url = f"{self.base}/{self.page}"
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        return t0

    async def _collect(self, t0: float) -> Run:
        while True:
            done = self.decoder.feed(await self.ws.recv())
            if done is not None:
                status, elements, exceptions = done
                return Run(time.perf_counter() - t0, status, elements, exceptions)

    @property
    def widgets(self) -> dict[str, tuple[str, str]]:
        return self.decoder.widgets

    @property
    def page_hash(self) -> str:
        return self.decoder.page_hash


@dataclass
class Decoder:
    """Turns the server's ForwardMsgs into finished runs, as the browser does.

    Used by `Session` and, on frames recorded from Chromium, by the validation, so both
    sides are read by the same code.
    """

    widgets: dict[str, tuple[str, str]] = field(default_factory=dict)  # key -> (id, kind)
    fragments: dict[str, str] = field(default_factory=dict)  # key -> its fragment's id, if any
    cache: OrderedDict = field(default_factory=OrderedDict)  # hash -> ForwardMsg, bounded
    page_hash: str = ""
    query_string: str = ""  # the browser's URL query, as page_info_changed sets it
    elements: dict = field(default_factory=dict)
    exceptions: list = field(default_factory=list)
    transients: list = field(default_factory=list)  # of the current run

    def feed(self, data: bytes):
        """One frame; returns (status, elements, exceptions) when it finishes a run."""
        fm = ForwardMsg()
        fm.ParseFromString(data)
        kind = fm.WhichOneof("type")
        if kind == "ref_hash":
            held = ForwardMsg()
            held.CopyFrom(self.cache[fm.ref_hash])
            held.metadata.CopyFrom(fm.metadata)
            fm, kind = held, held.WhichOneof("type")
        elif fm.metadata.cacheable:
            self._remember(fm)
        if kind == "navigation":  # the page this run shows, as the browser keeps it
            self.page_hash = fm.navigation.page_script_hash
        elif kind == "page_info_changed":  # the browser rewrites its URL, and sends it back
            self.query_string = fm.page_info_changed.query_string
        elif kind == "delta" and fm.delta.WhichOneof("type") == "new_transient":
            for el in fm.delta.new_transient.elements:  # spinners, toasts: shown, then gone
                self.transients.append(el)
        elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
            el = fm.delta.new_element
            self.elements[tuple(fm.metadata.delta_path)] = el
            self._learn_widget(el, fm.delta.fragment_id)
            if el.WhichOneof("type") == "exception":
                self.exceptions.append(f"{el.exception.type}: {el.exception.message}")
        elif kind == "script_finished":
            done = (fm.script_finished, self.elements, self.exceptions)
            self.elements, self.exceptions, self.transients = {}, [], []
            return done
        return None

    def _remember(self, fm: ForwardMsg) -> None:
        held = ForwardMsg()
        held.CopyFrom(fm)
        self.cache[fm.hash] = held
        while len(self.cache) > 256:  # the browser keeps a bounded cache too
            self.cache.popitem(last=False)

    def _learn_widget(self, el, fragment_id: str = "") -> None:
        kind = el.WhichOneof("type")
        wid = getattr(getattr(el, kind), "id", "") if kind in KINDS else ""
        if kind == "slider" and el.slider.type == Slider.Type.SELECT_SLIDER:
            kind = "select_slider"  # one element type, two encodings
        if kind == "number_input" and el.number_input.data_type == NumberInput.DataType.FLOAT:
            kind = "number_float"
        if wid.startswith("$$ID-"):
            key = wid.split("-", 2)[2]
            self.widgets[key] = (wid, kind)
            self.fragments[key] = fragment_id
