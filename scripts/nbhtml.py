#!/usr/bin/env /usr/bin/python3
"""nbhtml.py: static HTML pages of notebooks, as published under docs/notebooks/.

    scripts/nbhtml.py notebooks/NAME.ipynb ...            # writes docs/notebooks/NAME.html
    scripts/nbhtml.py --out build/notebooks build/notebooks/NAME.ipynb

Each page is the notebook as it is stored, outputs and figures included,
rendered by nbconvert without executing anything (so it is only as fresh
as the executed notebook: run scripts/run-notebooks.sh --update first,
which calls this). The pages load require.js and MathJax from a public CDN
so they work on any machine, and the style sheet nbconvert would put in
every page (about 560 KB) goes into one shared file, notebook-HASH.css,
named by its content. Each page carries

    <meta name="evalbook-notebook" content="NAME.ipynb sha256:HEX">

the SHA-256 of the notebook it was made from (line endings as LF), which
is how `nbcheck -published docs/notebooks` (a step of .ci/run) tells that a
committed page still matches its committed notebook. The output depends
only on the notebook and nbconvert's version (Debian bookworm's 6.5.3 in CI
and the Docker image): no dates, no paths of this machine.
"""
import hashlib, os, re, sys

from nbconvert import HTMLExporter
from traitlets.config import Config

REQUIRE_JS = "https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1.10/require.min.js"
MATHJAX = "https://cdnjs.cloudflare.com/ajax/libs/mathjax/2.7.7/MathJax.js?config=TeX-AMS_CHTML-full,Safe"
STYLE_RE = re.compile(r"[ \t]*<style type=\"text/css\">.*?</style>\n?", re.S)


def notebook_sum(data):
    return hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest()


def render(path):
    """The page of the notebook at path, and its shared style sheet."""
    data = open(path, "rb").read()
    c = Config()
    c.HTMLExporter.require_js_url = REQUIRE_JS
    c.HTMLExporter.mathjax_url = MATHJAX
    name = os.path.splitext(os.path.basename(path))[0]
    body, _ = HTMLExporter(config=c).from_filename(path, resources={"metadata": {"name": name}})
    head_end = body.find("</head>")
    if head_end < 0:
        sys.exit("nbhtml.py: %s: nbconvert wrote no </head>" % path)
    head, rest = body[:head_end], body[head_end:]
    css = "".join(m.group(0) for m in STYLE_RE.finditer(head))
    css = re.sub(r"[ \t]*</?style[^>]*>\n?", "", css)
    css_name = "notebook-%s.css" % hashlib.sha256(css.encode()).hexdigest()[:12]
    meta = '<meta name="evalbook-notebook" content="%s.ipynb sha256:%s">\n' % (name, notebook_sum(data))
    link = '<link rel="stylesheet" href="%s">\n' % css_name
    first = [True]

    def once(_):
        if first[0]:
            first[0] = False
            return link
        return ""

    head = STYLE_RE.sub(once, head)
    head = head.replace('<meta charset="utf-8" />\n', '<meta charset="utf-8" />\n' + meta, 1)
    if meta not in head:
        sys.exit("nbhtml.py: %s: no <meta charset> to put the notebook's hash after" % path)
    page = head + rest
    if "file:///" in page:
        sys.exit("nbhtml.py: %s: the page still loads file:/// URLs" % path)
    return page, css_name, css


def main(args):
    out = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "notebooks")
    if args[:1] == ["--out"]:
        if len(args) < 2:
            sys.exit(__doc__)
        out, args = args[1], args[2:]
    if not args or any(a.startswith("-") for a in args):
        sys.exit(__doc__)
    os.makedirs(out, exist_ok=True)
    for path in args:
        page, css_name, css = render(path)
        name = os.path.splitext(os.path.basename(path))[0]
        with open(os.path.join(out, css_name), "w", encoding="utf-8", newline="\n") as f:
            f.write(css)
        with open(os.path.join(out, name + ".html"), "w", encoding="utf-8", newline="\n") as f:
            f.write(page)
        print("%s -> %s (%d KB, style %s)" % (path, os.path.relpath(os.path.join(out, name + ".html")), len(page.encode()) // 1024, css_name))


if __name__ == "__main__":
    main(sys.argv[1:])
