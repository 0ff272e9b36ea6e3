"""Tests the cell-completion wait of .ci/jupyter_live.py (run: python3 .ci/jupyter_live_test.py).

The message-order cases need nothing installed. The live case starts a local
gonb kernel with jupyter_client (no Jupyter server, no Docker) and feeds the
same Cell with the kernel's iopub and shell messages as they come; it is
skipped when jupyter_client or the gonb kernel is missing.
"""
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jupyter_live  # noqa: E402


def msg(kind, parent, **content):
    return {"msg_type": kind, "parent_header": {"msg_id": parent}, "content": content}


class Orders(unittest.TestCase):
    def run_cell(self, messages):
        cell = jupyter_live.Cell("m1")
        for i, m in enumerate(messages):
            if cell.feed(m):
                return cell, i
        return cell, None

    def test_reply_before_display(self):
        # The flaky order: execute_reply (shell) overtakes the table's
        # display_data (iopub). The old client stopped at the reply, at
        # index 3, before the table; Cell waits for idle, index 5.
        seq = [msg("status", "m1", execution_state="busy"),
               msg("execute_input", "m1", code="..."),
               msg("stream", "m1", name="stdout", text="hello from go1.26\n"),
               msg("execute_reply", "m1", status="ok"),
               msg("display_data", "m1", data={"text/html": "<table>", "text/plain": "t"}),
               msg("status", "m1", execution_state="idle")]
        cell, at = self.run_cell(seq)
        self.assertEqual(at, 5)
        self.assertEqual(cell.status, "ok")
        self.assertEqual(cell.rich, [["text/html", "text/plain"]])
        self.assertIn("text/html", cell.text())

    def test_idle_before_reply(self):
        seq = [msg("display_data", "m1", data={"text/html": "x"}),
               msg("status", "m1", execution_state="idle"),
               msg("execute_reply", "m1", status="ok")]
        cell, at = self.run_cell(seq)
        self.assertEqual(at, 2)

    def test_update_display_and_other_parents(self):
        # A display updated in place (update_display_data) counts; the
        # messages of another request, even an idle and a reply, do not.
        seq = [msg("status", "other", execution_state="idle"),
               msg("execute_reply", "other", status="ok"),
               msg("display_data", "m1", data={"text/plain": "loading"}),
               msg("update_display_data", "m1", data={"text/html": "<table>"}),
               msg("execute_reply", "m1", status="ok"),
               msg("status", "m1", execution_state="idle")]
        cell, at = self.run_cell(seq)
        self.assertEqual(at, 5)
        self.assertEqual(cell.rich, [["text/plain"], ["text/html"]])
        self.assertIn("[update text/html output]", cell.text())

    def test_error_status(self):
        cell, at = self.run_cell([msg("error", "m1", ename="panic", evalue="boom"),
                                  msg("execute_reply", "m1", status="error"),
                                  msg("status", "m1", execution_state="idle")])
        self.assertEqual((at, cell.status), (2, "error"))
        self.assertIn("error: panic boom", cell.text())


def gonb_available():
    try:
        import jupyter_client  # noqa: F401
        from jupyter_client.kernelspec import KernelSpecManager
        return "gonb" in KernelSpecManager().find_kernel_specs()
    except Exception:
        return False


@unittest.skipUnless(gonb_available(), "jupyter_client or the gonb kernel is not installed")
class LocalKernel(unittest.TestCase):
    def test_display_arrives(self):
        from jupyter_client.manager import start_new_kernel
        import queue
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        # The module cache only (the proxy may refuse modules here), and
        # the project itself by a replace, as docker-check's first cell does.
        env = dict(os.environ, GOPROXY="off", GOFLAGS="-mod=mod")
        km, kc = start_new_kernel(kernel_name="gonb", startup_timeout=120, env=env)
        try:
            setup = kc.execute_interactive(
                "!*go mod edit -replace=github.com/evalbook/evalbook=%s "
                "-require=github.com/evalbook/evalbook@v0.0.0-00010101000000-000000000000" % root, timeout=120)
            self.assertEqual(setup["content"]["status"], "ok")
            for run in range(3):
                # docker-check's Go cell: prints, then shows a table
                # (nb.Table); each run must see both before it ends.
                code = ('import (\n"fmt"\n"github.com/evalbook/evalbook/pkg/nb"\n)\n\nfunc main() {\n'
                        'defer nb.Sync()\nfmt.Println("hello", %d)\n'
                        'if err := nb.Table("check", []string{"metric", "value"}, [][]string{{"answer", "42"}}, 0); err != nil {\npanic(err)\n}\n}\n' % run)
                msg_id = kc.execute(code)
                cell = jupyter_live.Cell(msg_id)
                deadline = time.monotonic() + jupyter_live.SILENCE
                while not cell.done():
                    self.assertLess(time.monotonic(), deadline, "kernel silent too long")
                    for get in (kc.get_iopub_msg, kc.get_shell_msg):
                        try:
                            cell.feed(get(timeout=0.05))
                        except queue.Empty:
                            pass
                self.assertEqual(cell.status, "ok", cell.text())
                self.assertIn("hello %d" % run, cell.text())
                self.assertTrue(any("text/html" in r for r in cell.rich), cell.text())
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
