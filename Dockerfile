# webagent with Debian's Chromium, for running tasks in a container:
#   docker build -t webagent .
#   docker run --rm webagent demo
#   docker run --rm -e OPENAI_API_KEY webagent run --model gpt-4.1-mini --url https://example.org "find the contact email"
# Files in and out (storage state, profiles, downloads) go through a volume:
#   docker run --rm -v "$PWD/state:/state" webagent run --save-storage-state /state/login.json ...
FROM golang:1.26-trixie AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o /out/webagent ./cmd/webagent

FROM debian:trixie-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium ca-certificates fonts-liberation tzdata \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/webagent /usr/local/bin/webagent
ENV CHROME_PATH=/usr/bin/chromium
# Chromium's own sandbox needs namespaces Docker's default profile denies;
# as root, webagent starts it with --no-sandbox and the container is the
# sandbox. Do not run this image with --privileged or the host's network
# unless you mean it.
WORKDIR /work
ENTRYPOINT ["webagent"]
CMD ["help"]
