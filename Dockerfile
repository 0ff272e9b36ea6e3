# The evalbook notebooks in Jupyter, with the GoNB Go kernel, Go, the evalbook
# module (dependencies downloaded, packages compiled) and the evalbook command.
#
#   docker build -t evalbook .
#   docker run --rm -p 8888:8888 evalbook
#
# then open the http://127.0.0.1:8888/?token=... URL that Jupyter prints. To
# choose the token yourself: docker run --rm -p 8888:8888 -e JUPYTER_TOKEN=secret evalbook
# Other commands run in the same image, e.g.
#   docker run --rm evalbook evalbook score
#
# Pinned: the base image tag, Go (a toolchain module from the Go module proxy,
# checked against its SHA-256), GoNB (tools/gonb.mod and tools/gonb.sum) and
# goimports. Debian's packages come from bookworm and float within it.
# Layers go from rarely to often changed: Debian packages, Go, the tools (built
# in their own stage from tools/ alone), the module downloads (only go.mod and
# go.sum are copied before them), then the sources, so editing a notebook or a
# .go file rebuilds only the last steps.
# No BuildKit-only syntax: the classic builder and BuildKit both build it.
# .ci/docker-check builds and tests this file on a machine without a registry.

# ---- Go, from the Go module proxy -----------------------------------------
FROM debian:bookworm-slim AS go

ARG GO_VERSION=1.26.8
# sha256sum of golang.org/toolchain@v0.0.1-go1.26.8.linux-{amd64,arm64}.zip,
# taken from zips that `go mod download` had checked against sum.golang.org
# (h1:ZOmGe1OnfREDMIdb1Qi4G9JSuDPBLGExZMQ4nis1RXM= and
# h1:sYL/O6MqS68ML0kjsQ36WoYIpJqkw60TxizWUYUKQMc=). Change both with GO_VERSION.
ARG GO_SHA256_AMD64=30c2b1bf7dcc88d3eb0a1364e47ddd9128edb3110a30e8a0ef61cd5856b31de7
ARG GO_SHA256_ARM64=02b36b6787b3ac767668f630e2998df45a3b1f9ffee08d1bf3ef6487cd658d99

RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl unzip \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/*

RUN set -eu; \
    arch=$(dpkg --print-architecture); \
    case "$arch" in \
      amd64) sum=$GO_SHA256_AMD64 ;; \
      arm64) sum=$GO_SHA256_ARM64 ;; \
      *) echo "no Go toolchain checksum for architecture $arch" >&2; exit 1 ;; \
    esac; \
    mod="golang.org/toolchain@v0.0.1-go${GO_VERSION}.linux-${arch}"; \
    curl -fsSL --retry 3 -o /tmp/go.zip "https://proxy.golang.org/golang.org/toolchain/@v/v0.0.1-go${GO_VERSION}.linux-${arch}.zip"; \
    echo "$sum  /tmp/go.zip" | sha256sum -c -; \
    mkdir /tmp/go; \
    unzip -q /tmp/go.zip -d /tmp/go; \
    mv "/tmp/go/$mod" /usr/local/go; \
    rm -rf /tmp/go /tmp/go.zip; \
    /usr/local/go/bin/go version

# ---- goimports and GoNB, built apart so their sources and build cache stay out
FROM go AS tools

ENV PATH=/root/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    GOTOOLCHAIN=local \
    CGO_ENABLED=0

# goimports: GoNB runs it on every cell.
RUN go install golang.org/x/tools/cmd/goimports@v0.52.0

# GoNB, pinned with its dependencies in tools/gonb.mod and tools/gonb.sum
# (`go install github.com/janpfeifer/gonb@v0.11.1` is refused by some proxies:
# it asks for the version list). -modfile still wants a go.mod to mark the
# module root; a stand-in keeps this layer independent of the project's go.mod.
WORKDIR /src
COPY tools/ tools/
RUN printf 'module tools\n' >go.mod \
 && go install -modfile=tools/gonb.mod github.com/janpfeifer/gonb \
 && gonb -V

# ---- The image ------------------------------------------------------------
FROM debian:bookworm-slim

LABEL org.opencontainers.image.title="evalbook notebooks" \
      org.opencontainers.image.description="Jupyter with the GoNB Go kernel, Go and the evalbook module and notebooks" \
      org.opencontainers.image.source="https://github.com/evalbook/evalbook"

# Jupyter from Debian (bookworm has the classic notebook server 6.4, not
# JupyterLab); nbconvert, nbclient and jupyter-client to run notebooks
# headlessly; tini as PID 1 so exited kernels and cell programs are reaped;
# fonts-noto-core (Noto Sans, Noto Sans Devanagari, Noto Sans Bengali) so PNG
# charts and exported notebooks draw Hindi and Bengali text, not boxes.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates \
      fonts-noto-core \
      jupyter-notebook \
      jupyter-nbconvert \
      python3-nbclient \
      jupyter-client \
      tini \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/*

COPY --from=go /usr/local/go /usr/local/go
COPY --from=tools /root/go/bin/goimports /root/go/bin/gonb /usr/local/bin/

RUN useradd --create-home --uid 1000 --user-group --shell /bin/bash evalbook
USER evalbook
# GOTOOLCHAIN=local: never fetch another Go. CGO_ENABLED=0: there is no C
# compiler here and nothing needs one. GOFLAGS: the sources carry no .git.
# PYDEVD_...: quiets a debugger warning that Debian's ipykernel prints.
ENV HOME=/home/evalbook \
    GOPATH=/home/evalbook/go \
    GOTOOLCHAIN=local \
    CGO_ENABLED=0 \
    GOFLAGS=-buildvcs=false \
    PYDEVD_DISABLE_FILE_VALIDATION=1 \
    PATH=/home/evalbook/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
WORKDIR /home/evalbook/evalbook

# The gonb kernelspec, in ~/.local/share/jupyter/kernels/gonb. --force_deps:
# gopls (completion and hover only) is left out.
RUN gonb --install --force_deps

# The module's dependencies, before the sources so this layer stays cached.
COPY --chown=evalbook:evalbook go.mod go.sum ./
RUN go mod download

COPY --chown=evalbook:evalbook . .

# The evalbook command, on PATH.
RUN go build -o /home/evalbook/go/bin/evalbook ./report \
 && evalbook version

# Do once what each notebook's setup cell and first cells do: a scratch module
# that requires this one through a local replace, and a program importing every
# package under pkg/, datasets/ and notebooks/nbkit/. Its `go get` checks the modules against the
# checksum database (GoNB's scratch modules start without a go.sum) and caches
# the answers, and its build fills the build cache, so the notebooks run
# offline and their first cells compile quickly.
RUN set -eu; \
    pkgs=$(go list -e -f '{{if and (ne .Name "main") (not .Error)}}{{.ImportPath}}{{end}}' ./pkg/... ./datasets/... ./notebooks/nbkit/...); \
    dir=$(mktemp -d); \
    cd "$dir"; \
    go mod init gonb_warmup 2>/dev/null; \
    go mod edit -replace=github.com/evalbook/evalbook=/home/evalbook/evalbook \
      -require=github.com/evalbook/evalbook@v0.0.0-00010101000000-000000000000; \
    { echo 'package main'; for p in $pkgs; do echo "import _ \"$p\""; done; echo 'func main() {}'; } >main.go; \
    go get; \
    go build -o /dev/null .; \
    cd /; \
    rm -rf "$dir"; \
    echo "warmed up $(echo $pkgs | wc -w) packages"

EXPOSE 8888
ENTRYPOINT ["/usr/bin/tini", "--"]
# Jupyter prints a URL with a random token, or uses $JUPYTER_TOKEN if set.
# answer_yes: Ctrl-C (or docker stop) ends the server without asking.
CMD ["jupyter", "notebook", "--ip=0.0.0.0", "--port=8888", "--no-browser", \
     "--notebook-dir=/home/evalbook/evalbook/notebooks", "--NotebookApp.answer_yes=True"]
