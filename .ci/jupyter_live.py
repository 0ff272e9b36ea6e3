"""Runs cells in a gonb kernel started through a Jupyter server, as a browser does.

Used by .ci/docker-check (run inside the Jupyter container):

    python3 - TOKEN CELLS < .ci/jupyter_live.py

TOKEN opens the server's API on 127.0.0.1:8888; CELLS are separated by lines
"#---". Prints each cell's streams and the MIME types of its rich outputs;
exits non-zero if a cell does not finish with status "ok".

A cell is finished when BOTH its execute_reply (shell channel) and the
kernel's status "idle" for it (iopub channel) have arrived: the two channels
are not ordered with respect to each other, so the reply can come before the
last display_data, and a client that stops at the reply loses the table (the
flaky "no table from the Go cell"). Nothing here waits for a length of time;
the only timeout is a bound on a silent kernel. Cell is the wait logic, on
its own so that .ci/jupyter_live_test.py can check it against message
sequences and a local kernel.
"""
import asyncio
import json
import sys
import urllib.request
import uuid

# The longest the kernel may stay silent while a cell runs (compiling the
# project in a cold GoNB cache takes minutes): a bound, not a wait.
SILENCE = 300

RICH = ("display_data", "update_display_data", "execute_result")


class Cell:
    """Collects the output of one execute_request from the kernel's messages."""

    def __init__(self, msg_id):
        self.msg_id = msg_id
        self.out = []
        self.status = None  # the execute_reply's status
        self.idle = False  # iopub status idle for this request
        self.rich = []  # MIME types of each rich output, in order

    def feed(self, m):
        """Takes one message (a dict with channel or not); returns True when done."""
        if m.get("parent_header", {}).get("msg_id") != self.msg_id:
            return self.done()
        kind = m.get("msg_type") or m.get("header", {}).get("msg_type")
        c = m.get("content", {})
        if kind == "stream":
            self.out.append(c.get("text", ""))
        elif kind in RICH:
            mimes = sorted(c.get("data", {}))
            self.rich.append(mimes)
            label = "update " if kind == "update_display_data" else ""
            self.out.append("[%s%s output]\n" % (label, ", ".join(mimes)))
        elif kind == "error":
            self.out.append("error: %s %s\n" % (c.get("ename"), c.get("evalue")))
        elif kind == "execute_reply":
            self.status = c.get("status")
        elif kind == "status" and c.get("execution_state") == "idle":
            self.idle = True
        return self.done()

    def done(self):
        return self.status is not None and self.idle

    def text(self):
        return "".join(self.out)


def execute_request(msg_id, code):
    return {
        "header": {"msg_id": msg_id, "username": "docker-check", "session": uuid.uuid4().hex,
                   "msg_type": "execute_request", "version": "5.3"},
        "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
        "content": {"code": code, "silent": False, "store_history": True,
                    "user_expressions": {}, "allow_stdin": False, "stop_on_error": True},
    }


def main(argv):
    from tornado import httpclient, websocket

    token, cells = argv[1], argv[2].split("\n#---\n")
    base = "127.0.0.1:8888"
    auth = {"Authorization": "token " + token}

    def api(method, path, body=None):
        req = urllib.request.Request("http://" + base + path, method=method,
                                     headers=dict(auth, **{"Content-Type": "application/json"}),
                                     data=None if body is None else json.dumps(body).encode())
        with urllib.request.urlopen(req, timeout=30) as r:
            data = r.read()
            return json.loads(data) if data else None

    async def execute(kernel_id, code):
        ws = await websocket.websocket_connect(httpclient.HTTPRequest(
            "ws://%s/api/kernels/%s/channels" % (base, kernel_id), headers=auth))
        cell = Cell(uuid.uuid4().hex)
        ws.write_message(json.dumps(execute_request(cell.msg_id, code)))
        while True:
            m = await asyncio.wait_for(ws.read_message(), SILENCE)
            if m is None:
                raise SystemExit("the kernel's websocket closed")
            if cell.feed(json.loads(m)):
                break
        ws.close()
        return cell

    kernel = api("POST", "/api/kernels", {"name": "gonb"})
    try:
        for i, code in enumerate(cells):
            cell = asyncio.run(execute(kernel["id"], code))
            for line in cell.text().splitlines():
                print("    cell %d | %s" % (i, line))
            if cell.status != "ok":
                raise SystemExit("cell %d finished with status %s" % (i, cell.status))
    finally:
        api("DELETE", "/api/kernels/" + kernel["id"])


if __name__ == "__main__":
    main(sys.argv)
