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
// 200 reply (a malformed or oversized one, or one cut short once it has
// started, fails its call: a retry would pay again), stop sending after a
// 401 or 403, keep a concurrency limit and an optional requests-per-minute
// limit, stop on context cancellation, send identical requests once (the
// twins share the reply or the failure, in flight at once or later in the
// run), and keep replies in a Cache: in memory, or in an append-only file
// (OpenCache) that makes a rerun resume without repeating paid calls. A
// malformed or oversized 200 reply is recorded in the cache as a failure
// of its request, which a rerun does not buy again unless
// Config.RetryFailed is set. A
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
// environment variable (Config.APIKeyEnv), extra headers' values too
// (Config.Headers), and none appears in a log line, cache entry or error.
// BaseURL may hold a query string (Azure's api-version), kept after the
// API path; wherever it is shown its password and secret query values are
// masked (RedactURL).
package llm
