// Package llm is a client for OpenAI-compatible endpoints (vLLM, the
// llama.cpp server, Ollama, hosted APIs), written with net/http only.
// pkg/judge sends its judge prompts through it, and the generate command
// asks models for answers with it.
//
// A Client speaks two APIs: chat completions (Complete, which implements
// Completer: a system and a user message in, the reply text out) and
// plain completions (CompletePrompt: a raw prompt in, the text and, on
// request, the log probability of every token out, with the echo,
// logprobs and max_tokens fields that scoring a prompt's own tokens
// needs).
//
// Both send temperature 0 and an optional seed, bound each attempt with a
// timeout (for the reply to start; a reply that has started gets a grace
// period to finish), retry with exponential backoff and jitter on 429,
// 5xx, timeouts and network errors (honouring Retry-After), never retry a
// 200 reply (a malformed or oversized one fails its call: a retry would
// pay again), stop sending after a 401 or 403, keep a
// concurrency limit and an optional requests-per-minute limit, stop on
// context cancellation, send identical requests in flight at once only
// once, and keep replies in a Cache: in memory, or in an append-only file
// (OpenCache) that makes a rerun resume without repeating paid calls. A
// reply is keyed by what was asked (model, API path, prompt hash, messages
// or prompts, parameters; see CacheKey), not by the endpoint's URL, so
// clients of several endpoints serving one model share a cache and a
// server moved to another port finds its replies.
//
// A call that fails is a *CallError: its HTTP status, its attempts, its
// Kind ("server_error", "timeout", "too_large", "auth", ...), and Cell, the
// one line a response table or verdict file shows.
//
// Config is a documented struct whose zero fields take DefaultConfig's
// values; only BaseURL and Model are required. The API key comes from an
// environment variable (Config.APIKeyEnv) and appears in no log line,
// cache entry or error.
package llm
