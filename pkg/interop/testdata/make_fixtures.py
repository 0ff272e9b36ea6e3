#!/usr/bin/env python3
"""Writes the interop fixtures (run from this folder: python3 make_fixtures.py).

Each fixture follows the layout its harness writes, learned from the
harness's own source (see ../README section in the repository README).
The reported aggregates are computed here from the per-sample values the
way the harness computes them (a mean; lm-eval's stderr is the sample
standard deviation over sqrt(n)), so `evalbook import --check` must agree;
the *_mismatch fixtures change one reported figure on purpose.
"""
import hashlib, json, math, os, shutil, zipfile

def sha(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()

def mean(v):
    return sum(v) / len(v)

def stderr(v):
    m = mean(v)
    return math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1)) / math.sqrt(len(v))

def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)

def jsonl(path, rows):
    write(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))

# ---------------------------------------------------------------- lm-eval
ARC = [  # (question, choices, gold index, acc, acc_norm)
    ("सूर्य किस दिशा में उगता है?", ["पूर्व", "पश्चिम", "उत्तर", "दक्षिण"], 0, 1, 1),
    ("पानी का रासायनिक सूत्र क्या है?", ["CO2", "H2O", "O2", "NaCl"], 1, 1, 0),
    ("एक सप्ताह में कितने दिन होते हैं?", ["पाँच", "छह", "सात", "आठ"], 2, 0, 0),
    ("पृथ्वी का उपग्रह कौन है?", ["मंगल", "चंद्रमा", "शुक्र", "सूर्य"], 1, 1, 1),
]
GSM = [  # (question, answer, response, strict, flexible)
    ("রিনার ৩টি আপেল আছে, সে আরও ৫টি কিনল। মোট কত?", "৩ + ৫ = ৮ #### 8", "3 + 5 = 8. The answer is 8.", 1, 1),
    ("একটি বইয়ের দাম ১২ টাকা। ৩টি বইয়ের দাম কত?", "১২ × ৩ = ৩৬ #### 36", "12 times 3 is 36", 0, 1),
    ("১০ থেকে ৪ বাদ দিলে কত থাকে?", "১০ − ৪ = ৬ #### 6", "The answer is 6.", 1, 1),
]
FLORES = [("नमस्ते दुनिया", "Hello world", "Hello world"), ("धन्यवाद", "Thank you", "Thanks")]

def lmeval_new(root, model_args, model, date, mismatch=False, flip=()):
    san = model.replace("/", "__")
    d = os.path.join(root, san)
    rows, acc, accn = [], [], []
    for i, (q, ch, gold, a, an) in enumerate(ARC):
        if i in flip:
            a = 1 - a
        doc = {"id": f"arc-hi-{i}", "question": q, "choices": {"text": ch, "label": list("ABCD")}, "answerKey": "ABCD"[gold]}
        ctx = f"प्रश्न: {q}\nउत्तर:"
        args = {f"gen_args_{j}": {"arg_0": ctx, "arg_1": " " + c} for j, c in enumerate(ch)}
        lls = [[str(-1.0 - j * 0.5 if j != gold else -0.4), str(j == gold)] for j in range(len(ch))]
        rows.append({"doc_id": i, "doc": doc, "target": str(gold), "arguments": args,
                     "resps": [[x] for x in lls], "filtered_resps": lls, "filter": "none",
                     "metrics": ["acc", "acc_norm"], "doc_hash": sha(json.dumps(doc, indent=2, ensure_ascii=False)),
                     "prompt_hash": sha(ctx), "target_hash": sha(str(gold)), "acc": float(a), "acc_norm": float(an)})
        acc.append(a); accn.append(an)
    jsonl(os.path.join(d, f"samples_arc_easy_hi_{date}.jsonl"), rows)
    rows, strict, flex = [], [], []
    for flt, col in (("strict-match", 3), ("flexible-extract", 4)):
        for i, g in enumerate(GSM):
            doc = {"question": g[0], "answer": g[1]}
            ctx = f"Question: {g[0]}\nAnswer:"
            filtered = g[2].split()[-1].rstrip(".") if flt == "flexible-extract" else ("8" if i == 0 else "[invalid]" if i == 1 else "6")
            rows.append({"doc_id": i, "doc": doc, "target": g[1], "arguments": {"gen_args_0": {"arg_0": ctx, "arg_1": {"until": ["Question:"], "do_sample": False}}},
                         "resps": [[g[2]]], "filtered_resps": [filtered], "filter": flt, "metrics": ["exact_match"],
                         "doc_hash": sha(json.dumps(doc, indent=2, ensure_ascii=False)), "prompt_hash": sha(ctx), "target_hash": sha(g[1]),
                         "exact_match": float(g[col])})
            (strict if flt == "strict-match" else flex).append(g[col])
    jsonl(os.path.join(d, f"samples_gsm8k_bn_{date}.jsonl"), rows)
    rows = []
    for i, (src, ref, hyp) in enumerate(FLORES):
        doc = {"sentence_hin": src, "sentence_eng": ref}
        rows.append({"doc_id": i, "doc": doc, "target": ref, "arguments": {"gen_args_0": {"arg_0": src + " = ", "arg_1": {"until": ["\n"]}}},
                     "resps": [[hyp]], "filtered_resps": [hyp], "filter": "none", "metrics": ["bleu"],
                     "doc_hash": sha(json.dumps(doc, indent=2, ensure_ascii=False)), "prompt_hash": sha(src + " = "), "target_hash": sha(ref),
                     "bleu": [ref, hyp]})
    jsonl(os.path.join(d, f"samples_flores_hi_en_{date}.jsonl"), rows)
    res = {
        "results": {
            "arc_easy_hi": {"alias": "arc_easy_hi", "acc,none": mean(acc), "acc_stderr,none": stderr(acc),
                            "acc_norm,none": mean(accn), "acc_norm_stderr,none": stderr(accn)},
            "flores_hi_en": {"alias": "flores_hi_en", "bleu,none": 61.2, "bleu_stderr,none": "N/A"},
            "gsm8k_bn": {"alias": "gsm8k_bn", "exact_match,strict-match": mean(strict), "exact_match_stderr,strict-match": stderr(strict),
                         "exact_match,flexible-extract": mean(flex), "exact_match_stderr,flexible-extract": stderr(flex)},
        },
        "group_subtasks": {"arc_easy_hi": [], "flores_hi_en": [], "gsm8k_bn": []},
        "configs": {"arc_easy_hi": {"task": "arc_easy_hi", "output_type": "multiple_choice"},
                    "flores_hi_en": {"task": "flores_hi_en", "output_type": "generate_until"},
                    "gsm8k_bn": {"task": "gsm8k_bn", "output_type": "generate_until"}},
        "versions": {"arc_easy_hi": 1.0, "flores_hi_en": 1.0, "gsm8k_bn": 3.0},
        "n-shot": {"arc_easy_hi": 0, "flores_hi_en": 0, "gsm8k_bn": 5},
        "higher_is_better": {"arc_easy_hi": {"acc": True, "acc_norm": True}, "gsm8k_bn": {"exact_match": True}},
        "n-samples": {"arc_easy_hi": {"original": 4, "effective": 4}, "gsm8k_bn": {"original": 3, "effective": 3}, "flores_hi_en": {"original": 2, "effective": 2}},
        "config": {"model": "hf", "model_args": model_args, "batch_size": 1, "bootstrap_iters": 100000},
        "git_hash": "0000000", "date": 1764633600.0,
        "task_hashes": {}, "model_source": "hf", "model_name": model, "model_name_sanitized": san,
    }
    if mismatch:
        res["results"]["arc_easy_hi"]["acc,none"] = 0.8
    write(os.path.join(d, f"results_{date}.json"), json.dumps(res, indent=2, ensure_ascii=False))

def lmeval_old(root, model_args):
    """lm-eval 0.4.0-0.4.2: results.json, and <model_args>_<task>.jsonl
    holding one indented JSON array, without filter/metrics/hashes."""
    san = model_args.replace("/", "__").replace("=", "__")
    rows, acc = [], []
    for i, (q, ch, gold, a, an) in enumerate(ARC):
        doc = {"question": q, "choices": {"text": ch}, "answerKey": "ABCD"[gold]}
        ctx = f"प्रश्न: {q}\nउत्तर:"
        rows.append({"doc_id": i, "doc": doc, "target": gold, "arguments": [[ctx, " " + c] for c in ch],
                     "resps": [[[-0.4 if j == gold else -1.0 - j, j == gold]] for j in range(len(ch))],
                     "filtered_resps": [[-0.4 if j == gold else -1.0 - j, j == gold] for j in range(len(ch))],
                     "acc": float(a), "acc_norm": float(an)})
        acc.append(a)
    write(os.path.join(root, f"{san}_arc_easy_hi.jsonl"), json.dumps(rows, indent=2, ensure_ascii=False))
    accn = [r["acc_norm"] for r in rows]
    res = {"results": {"arc_easy_hi": {"acc,none": mean(acc), "acc_stderr,none": stderr(acc), "acc_norm,none": mean(accn),
                                       "acc_norm_stderr,none": stderr(accn), "alias": "arc_easy_hi"}},
           "configs": {"arc_easy_hi": {"task": "arc_easy_hi"}}, "versions": {"arc_easy_hi": "Yaml"}, "n-shot": {"arc_easy_hi": 0},
           "config": {"model": "hf", "model_args": model_args, "batch_size": 1}, "git_hash": "0000000"}
    write(os.path.join(root, "results.json"), json.dumps(res, indent=4, ensure_ascii=False))

def lmeval():
    shutil.rmtree("lmeval", ignore_errors=True)
    lmeval_new("lmeval/new", "pretrained=evalbook/tiny-hi,dtype=bfloat16", "evalbook/tiny-hi", "2026-12-01T10-00-00.123456")
    lmeval_old("lmeval/old", "pretrained=evalbook/tiny-hi")
    lmeval_new("lmeval/mismatch", "pretrained=evalbook/tiny-hi", "evalbook/tiny-hi", "2026-12-01T10-00-00.123456", mismatch=True)
    # run B of the compare test: the same documents, another model
    lmeval_new("lmeval/runB", "pretrained=evalbook/tiny-hi-v2", "evalbook/tiny-hi-v2", "2026-12-02T09-30-00.000001", flip=(1, 2))
    # broken: a truncated line, a line with no doc_id
    good = open("lmeval/new/evalbook__tiny-hi/samples_arc_easy_hi_2026-12-01T10-00-00.123456.jsonl", encoding="utf-8").read().splitlines()
    write("lmeval/broken/truncated/samples_arc_easy_hi_2026-12-01T10-00-00.jsonl", good[0] + "\n" + good[1][: len(good[1]) // 2] + "\n")
    nodoc = json.loads(good[2]); del nodoc["doc_id"]
    write("lmeval/broken/no_doc_id/samples_arc_easy_hi_2026-12-01T10-00-00.jsonl", good[0] + "\n" + good[1] + "\n" + json.dumps(nodoc, ensure_ascii=False) + "\n")

# ---------------------------------------------------------------- inspect_ai
INSPECT_VALUE = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}  # inspect's value_to_float
QA = [  # (id, question, target, completion, graded value, includes)
    (1, "भारत की राजधानी क्या है?", "नई दिल्ली", "भारत की राजधानी नई दिल्ली है।", "C", True),
    (2, "বাংলাদেশের রাজধানী কোথায়?", "ঢাকা", "চট্টগ্রাম", "I", False),
    (3, "गंगा नदी कहाँ से निकलती है?", "गंगोत्री", "हिमालय से, गंगोत्री के पास", "P", True),
    (4, "রবীন্দ্রনাথ ঠাকুর কোন পুরস্কার পান?", "নোবেল পুরস্কার", "নোবেল পুরস্কার", "C", True),
    (5, "ताजमहल किसने बनवाया?", "शाहजहाँ", "मुझे नहीं पता", "N", False),
]

def inspect_eval_spec(task):
    return {"eval_id": "E1", "run_id": "R1", "created": "2026-12-01T10:00:00+00:00", "task": task, "task_id": "T1",
            "task_version": 0, "dataset": {"name": "qa_hi_bn", "location": "qa.jsonl", "samples": len(QA)},
            "model": "openai/gpt-4o-mini", "model_args": {}, "config": {"epochs": 1}, "packages": {"inspect_ai": "0.3.150"}}

def inspect_samples(version):
    out = []
    for sid, q, tgt, comp, graded, inc in QA:
        usage = {"input_tokens": 20 + sid, "output_tokens": 5 + sid, "total_tokens": 25 + 2 * sid}
        smp = {"id": sid, "epoch": 1, "input": [{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": q}],
               "target": tgt, "messages": [{"role": "user", "content": q}, {"role": "assistant", "content": [{"type": "text", "text": comp}]}],
               "output": {"model": "gpt-4o-mini", "choices": [{"message": {"role": "assistant", "content": [{"type": "text", "text": comp}]}, "stop_reason": "stop"}],
                          "completion": comp, "usage": usage},
               "metadata": {"language": "hi" if sid % 2 else "bn", "source": "evalbook"},
               "model_usage": {"openai/gpt-4o-mini": usage}}
        if version == 1:
            smp["score"] = {"value": graded, "answer": comp, "explanation": "graded"}
        else:
            smp["scores"] = {"model_graded_qa": {"value": graded, "answer": comp, "explanation": "graded"},
                             "includes": {"value": inc}}
        out.append(smp)
    return out

def inspect_results(version):
    graded = [INSPECT_VALUE[q[4]] for q in QA]
    inc = [1.0 if q[5] else 0.0 for q in QA]
    metrics = lambda v: {"accuracy": {"name": "accuracy", "value": mean(v), "params": {}}, "stderr": {"name": "stderr", "value": stderr(v), "params": {}}}
    if version == 1:
        return {"scorer": {"name": "model_graded_qa", "params": {}, "metrics": metrics(graded)}}
    return {"total_samples": len(QA), "completed_samples": len(QA),
            "scores": [{"name": "model_graded_qa", "scorer": "model_graded_qa", "params": {}, "metrics": metrics(graded)},
                       {"name": "includes", "scorer": "includes", "params": {}, "metrics": metrics(inc)}]}

def inspect_stats():
    return {"started_at": "2026-12-01T10:00:00+00:00", "completed_at": "2026-12-01T10:01:00+00:00",
            "model_usage": {"openai/gpt-4o-mini": {"input_tokens": 115, "output_tokens": 40, "total_tokens": 155}}}

def summary(s):
    return {"id": s["id"], "epoch": s["epoch"], "input": s["input"], "target": s["target"], "scores": s.get("scores")}

def zwrite(path, members, compression=zipfile.ZIP_DEFLATED):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with zipfile.ZipFile(path, "w", compression=compression) as z:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=(2026, 12, 1, 10, 0, 0))  # fixed, so the fixture reproduces
            info.compress_type = compression
            z.writestr(info, data if isinstance(data, (bytes, str)) else json.dumps(data, indent=2, ensure_ascii=False))

def inspect():
    shutil.rmtree("inspect", ignore_errors=True)
    plan = {"name": "plan", "steps": [{"solver": "generate", "params": {}}], "config": {}}
    spec = inspect_eval_spec("qa_hi_bn")
    smp = inspect_samples(2)
    start = {"version": 2, "eval": spec, "plan": plan}
    header = {"version": 2, "status": "success", "eval": spec, "plan": plan, "results": inspect_results(2), "stats": inspect_stats()}
    full = [("_journal/start.json", start)]
    full += [(f"samples/{s['id']}_epoch_1.json", s) for s in smp[:3]] + [("_journal/summaries/1.json", [summary(s) for s in smp[:3]])]
    full += [(f"samples/{s['id']}_epoch_1.json", s) for s in smp[3:]] + [("_journal/summaries/2.json", [summary(s) for s in smp[3:]])]
    full += [("summaries.json", [summary(s) for s in smp]),
             ("reductions.json", [{"scorer": "model_graded_qa", "samples": [{"value": s["scores"]["model_graded_qa"]["value"], "sample_id": s["id"]} for s in smp]}]),
             ("header.json", header)]
    zwrite("inspect/qa_hi_bn.eval", full)
    # a run still being written: the journal and the first flush, no header.json
    zwrite("inspect/partial.eval", full[:5])
    # the first .eval releases: start.json, results.json and summary.json at the top level
    early = [("start.json", start)] + [(f"samples/{s['id']}_epoch_1.json", s) for s in smp] + [
        ("summary.json", [summary(s) for s in smp]),
        ("results.json", {"status": "success", "stats": inspect_stats(), "results": inspect_results(2)})]
    zwrite("inspect/early.eval", early)
    # .json logs: version 2, and version 1 with one "score" per sample and one results.scorer
    write("inspect/qa_hi_bn.json", json.dumps(dict(header, samples=smp), indent=2, ensure_ascii=False))
    write("inspect/v1.json", json.dumps({"version": 1, "status": "success", "eval": spec, "plan": plan, "results": inspect_results(1),
                                         "stats": inspect_stats(), "samples": inspect_samples(1)}, indent=2, ensure_ascii=False))
    # broken
    data = open("inspect/qa_hi_bn.eval", "rb").read()
    os.makedirs("inspect/broken", exist_ok=True)
    open("inspect/broken/truncated.eval", "wb").write(data[: len(data) // 2])
    zwrite("inspect/broken/version3.eval", [("_journal/start.json", dict(start, version=3)), ("header.json", dict(header, version=3))])
    noid = [dict(s) for s in smp]; del noid[2]["id"]
    write("inspect/broken/missing_id.json", json.dumps(dict(header, samples=noid), indent=2, ensure_ascii=False))
    # two epochs: one sample file per sample and epoch; inspect reduces each
    # sample's epochs by their mean before the metrics, so with every sample
    # run twice the reported accuracy is the mean over all six scores
    ep = dict(spec, config={"epochs": 2})
    vals = {(1, 1): "C", (1, 2): "C", (2, 1): "I", (2, 2): "C", (3, 1): "P", (3, 2): "I"}
    esmp = []
    for (sid, e), v in sorted(vals.items(), key=lambda x: (x[0][1], x[0][0])):
        x = dict(smp[sid - 1]); x["epoch"] = e; x["scores"] = {"model_graded_qa": {"value": v}}
        esmp.append(x)
    reduced = [mean([INSPECT_VALUE[vals[(sid, 1)]], INSPECT_VALUE[vals[(sid, 2)]]]) for sid in (1, 2, 3)]
    eres = {"total_samples": 3, "completed_samples": 3, "scores": [{"name": "model_graded_qa", "scorer": "model_graded_qa", "reducer": "mean", "params": {},
            "metrics": {"accuracy": {"name": "accuracy", "value": mean(reduced), "params": {}}, "stderr": {"name": "stderr", "value": stderr(reduced), "params": {}}}}]}
    eheader = {"version": 2, "status": "success", "eval": ep, "plan": plan, "results": eres, "stats": inspect_stats()}
    zwrite("inspect/epochs.eval", [("_journal/start.json", {"version": 2, "eval": ep, "plan": plan})] +
           [(f"samples/{x['id']}_epoch_{x['epoch']}.json", x) for x in esmp] + [("header.json", eheader)])
    zwrite("inspect/broken/bomb.eval", [("header.json", header), ("samples/1_epoch_1.json", json.dumps(smp[0]) + " " * (8 << 20))])

# ---------------------------------------------------------------- promptfoo
PF_TESTS = [  # (vars, expected)
    ({"text": "Good morning", "language": "hi"}, "सुप्रभात"),
    ({"text": "Thank you", "language": "bn"}, "ধন্যবাদ"),
    ({"text": "Water", "language": "hi"}, "पानी"),
    ({"text": "Book", "language": "bn"}, "বই"),
]
PF_OUT = {  # provider -> (output, contains passes, fluency score) per test; None output = provider error
    "openai:gpt-4o-mini": [("सुप्रभात!", True, 0.9), ("ধন্যবাদ", True, 1.0), ("जल", False, 0.7), ("বই", True, 0.8)],
    "ollama:llama3": [("गुड मॉर्निंग", False, 0.4), ("ধন্যবাদ", True, 0.9), (None, False, 0.0), ("পুস্তক", False, 0.6)],
}

def promptfoo_results(with_idx):
    res, metrics = [], {}
    raw = "Translate to {{language}}: {{text}}"
    for prov, outs in PF_OUT.items():
        m = {"score": 0.0, "testPassCount": 0, "testFailCount": 0, "testErrorCount": 0, "assertPassCount": 0, "assertFailCount": 0,
             "totalLatencyMs": 0, "tokenUsage": {"total": 0, "prompt": 0, "completion": 0, "cached": 0},
             "namedScores": {"fluency": 0.0}, "namedScoresCount": {"fluency": 0}, "cost": 0}
        for t, ((vars_, exp), (out, ok, flu)) in enumerate(zip(PF_TESTS, outs)):
            asserts = [{"type": "icontains", "value": exp}, {"type": "llm-rubric", "value": "fluent and natural", "metric": "fluency", "threshold": 0.5}]
            test = {"vars": vars_, "assert": asserts, "description": vars_["text"]}
            r = {"promptIdx": 0, "testIdx": t, "testCase": test, "promptId": "p1",
                 "provider": {"id": prov, "label": ""}, "prompt": {"raw": raw.replace("{{language}}", vars_["language"]).replace("{{text}}", vars_["text"]), "label": raw},
                 "vars": vars_, "latencyMs": 100 + t, "cost": 0}
            if not with_idx:
                del r["promptIdx"], r["testIdx"]
            if out is None:
                r.update({"response": {"error": "connection refused"}, "error": "connection refused", "failureReason": 2,
                          "success": False, "score": 0, "namedScores": {}, "gradingResult": None})
                m["testErrorCount"] += 1
            else:
                comps = [{"pass": ok, "score": 1.0 if ok else 0.0, "reason": "contains" if ok else "does not contain", "assertion": asserts[0]},
                         {"pass": flu >= 0.5, "score": flu, "reason": "rubric", "assertion": asserts[1]}]
                score = (comps[0]["score"] + comps[1]["score"]) / 2
                success = all(c["pass"] for c in comps)
                r.update({"response": {"output": out, "tokenUsage": {"total": 12, "prompt": 9, "completion": 3}},
                          "success": success, "score": score, "namedScores": {"fluency": flu}, "failureReason": 0 if success else 1,
                          "gradingResult": {"pass": success, "score": score, "reason": "all assertions passed" if success else "failed",
                                            "namedScores": {"fluency": flu}, "componentResults": comps}})
                m["score"] += score
                m["testPassCount" if success else "testFailCount"] += 1
                m["namedScores"]["fluency"] += flu
                m["namedScoresCount"]["fluency"] += 1
            res.append(r)
        metrics[prov] = m
    prompts = [{"raw": raw, "label": raw, "provider": p, "metrics": metrics[p]} for p in PF_OUT]
    succ = sum(m["testPassCount"] for m in metrics.values())
    fail = sum(m["testFailCount"] for m in metrics.values())
    err = sum(m["testErrorCount"] for m in metrics.values())
    stats = {"successes": succ, "failures": fail, "errors": err, "tokenUsage": {"total": 84, "prompt": 63, "completion": 21, "cached": 0}}
    return res, prompts, stats

def promptfoo():
    shutil.rmtree("promptfoo", ignore_errors=True)
    res, prompts, stats = promptfoo_results(True)
    v3 = {"evalId": "eval-2026-12-01T10:00:00", "results": {"version": 3, "timestamp": "2026-12-01T10:00:00.000Z",
          "prompts": prompts, "results": res, "stats": stats}, "config": {"description": "translate_hi_bn"}, "shareableUrl": None}
    write("promptfoo/results_v3.json", json.dumps(v3, indent=2, ensure_ascii=False))
    res2, prompts2, stats2 = promptfoo_results(False)
    for p in prompts2:
        del p["metrics"]["namedScoresCount"]  # older releases did not count named scores
    body = []
    for t, (vars_, exp) in enumerate(PF_TESTS):
        outs = [r for r in res2 if r["vars"] is vars_ or r["vars"] == vars_]
        body.append({"description": vars_["text"], "outputs": [{"pass": r["success"], "score": r["score"], "text": (r.get("response") or {}).get("output", ""),
                     "namedScores": r["namedScores"], "cost": 0, "latencyMs": r["latencyMs"], "failureReason": r["failureReason"],
                     "id": f"o{t}", "prompt": r["prompt"]["raw"], "testCase": r["testCase"]} for r in outs],
                     "vars": [vars_["text"], vars_["language"]], "test": {"vars": vars_}})
    v2 = {"evalId": "eval-2025-03-01T09:00:00", "results": {"version": 2, "timestamp": "2025-03-01T09:00:00.000Z", "results": res2,
          "table": {"head": {"prompts": prompts2, "vars": ["text", "language"]}, "body": body}, "stats": stats2},
          "config": {"description": "translate_hi_bn"}, "shareableUrl": None}
    write("promptfoo/results_v2.json", json.dumps(v2, indent=2, ensure_ascii=False))
    broken = json.loads(json.dumps(v3)); del broken["results"]["results"][5]["success"]
    write("promptfoo/broken/missing_success.json", json.dumps(broken, indent=2, ensure_ascii=False))
    v4 = json.loads(json.dumps(v3)); v4["results"]["version"] = 4
    write("promptfoo/broken/version4.json", json.dumps(v4, indent=2, ensure_ascii=False))

# ---------------------------------------------------------------- Every Eval Ever
EEE_ROWS = [  # (sample id, question, reference, output, correct)
    ("mgsm_bn_0", "জেনেটের হাঁস প্রতিদিন ১৬টি ডিম দেয়...", ["18"], ["18"], True),
    ("mgsm_bn_1", "একটি পোশাকে ২ বোল্ট নীল ফাইবার লাগে...", ["3"], ["3"], True),
    ("mgsm_bn_2", "জোশ একটি বাড়ি কেনেন...", ["70000"], ["50000"], False),
    ("mgsm_bn_3", "জেমস সপ্তাহে ৩ বার দৌড়ায়...", ["540"], ["540"], True),
]

def eee_aggregate(version, uuid, file_path, instance_bytes, rows, top_source=False):
    scores = [1.0 if r[4] else 0.0 for r in rows]
    src = {"dataset_name": "mgsm_bn", "source_type": "hf_dataset", "hf_repo": "juletxara/mgsm", "hf_split": "test", "samples_number": len(rows)}
    res = {"evaluation_result_id": "mgsm_bn.accuracy", "evaluation_name": "mgsm_bn",
           "metric_config": {"metric_id": "accuracy", "metric_name": "accuracy", "metric_kind": "accuracy", "metric_unit": "proportion",
                             "lower_is_better": False, "score_type": "binary", "min_score": 0.0, "max_score": 1.0},
           "score_details": {"score": mean(scores), "uncertainty": {"standard_error": {"value": stderr(scores), "method": "analytic"}, "num_samples": len(rows)}}}
    agg = {"schema_version": version, "evaluation_id": f"mgsm_bn/evalbook_tiny-bn/{uuid}", "evaluation_timestamp": "1764583200",
           "retrieved_timestamp": "1764583201",
           "source_metadata": {"source_name": "evalbook fixtures", "source_type": "evaluation_run", "source_organization_name": "evalbook",
                               "evaluator_relationship": "first_party"},
           "eval_library": {"name": "lm-eval", "version": "0.4.9"},
           "model_info": {"name": "tiny-bn", "id": "evalbook/tiny-bn", "developer": "evalbook"},
           "evaluation_results": [res]}
    if top_source:
        agg["source_data"] = src
        agg["model_info"]["inference_platform"] = "unknown"
    else:
        res["source_data"] = src
        agg["model_info"]["additional_details"] = {"deployment_type": "self_deployed", "model_availability": "open_weights"}
    agg["detailed_evaluation_results"] = {"format": "jsonl", "file_path": file_path, "hash_algorithm": "sha256",
                                          "checksum": hashlib.sha256(instance_bytes).hexdigest(), "total_rows": len(rows)}
    return agg

def eee_instances(version, uuid, rows):
    out = []
    for sid, q, ref, outp, ok in rows:
        out.append({"schema_version": version, "evaluation_id": f"mgsm_bn/evalbook_tiny-bn/{uuid}", "model_id": "evalbook/tiny-bn",
                    "evaluation_name": "mgsm_bn", "evaluation_result_id": "mgsm_bn.accuracy", "sample_id": sid, "sample_hash": sha(q + "|" + ref[0]),
                    "interaction_type": "single_turn", "input": {"raw": q, "reference": ref}, "output": {"raw": outp},
                    "answer_attribution": [{"turn_idx": 0, "source": "output.raw", "extracted_value": outp[0], "extraction_method": "exact_match", "is_terminal": True}],
                    "evaluation": {"score": 1.0 if ok else 0.0, "is_correct": ok},
                    "token_usage": {"input_tokens": 30, "output_tokens": 4, "total_tokens": 34}, "metadata": {"language": "bn"}})
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out).encode("utf-8")

def eee():
    shutil.rmtree("eee", ignore_errors=True)
    u = "6f1c2a8e-0b1d-4c55-9a77-3e2d1c0b9a88"
    inst = eee_instances("0.3.0", u, EEE_ROWS)
    d = "eee/v030/data/mgsm_bn/evalbook/tiny-bn"
    os.makedirs(d, exist_ok=True)
    open(f"{d}/{u}_samples.jsonl", "wb").write(inst)
    write(f"{d}/{u}.json", json.dumps(eee_aggregate("0.3.0", u, f"data/mgsm_bn/evalbook/tiny-bn/{u}_samples.jsonl", inst, EEE_ROWS), indent=2, ensure_ascii=False))
    # the repository path resolved from a folder above the aggregate
    os.makedirs("eee/repo/instances/mgsm_bn", exist_ok=True)
    open(f"eee/repo/instances/mgsm_bn/{u}_samples.jsonl", "wb").write(inst)
    write(f"eee/repo/data/mgsm_bn/evalbook/tiny-bn/{u}.json", json.dumps(eee_aggregate("0.3.0", u, f"instances/mgsm_bn/{u}_samples.jsonl", inst, EEE_ROWS), indent=2, ensure_ascii=False))
    # schema 0.2.2: source_data at the top level, model_info.inference_platform
    u2 = "0a9b8c7d-1111-4222-8333-944455556666"
    inst2 = eee_instances("0.2.2", u2, EEE_ROWS)
    os.makedirs("eee/v022", exist_ok=True)
    open(f"eee/v022/{u2}_samples.jsonl", "wb").write(inst2)
    write(f"eee/v022/{u2}.json", json.dumps(eee_aggregate("0.2.2", u2, f"data/mgsm_bn/evalbook/tiny-bn/{u2}_samples.jsonl", inst2, EEE_ROWS, top_source=True), indent=2, ensure_ascii=False))
    # broken
    b = "eee/broken"
    os.makedirs(b, exist_ok=True)
    agg = eee_aggregate("0.3.0", u, f"{u}_samples.jsonl", inst, EEE_ROWS)
    write(f"{b}/schema040.json", json.dumps(dict(agg, schema_version="0.4.0"), indent=2))
    noscore = json.loads(json.dumps(agg)); del noscore["evaluation_results"][0]["score_details"]["score"]
    write(f"{b}/no_score.json", json.dumps(noscore, indent=2))
    lines = inst.decode("utf-8").splitlines()
    l3 = json.loads(lines[2]); del l3["evaluation"]["score"]
    bad = ("\n".join(lines[:2] + [json.dumps(l3, ensure_ascii=False)] + lines[3:]) + "\n").encode("utf-8")
    os.makedirs(f"{b}/no_instance_score", exist_ok=True)
    open(f"{b}/no_instance_score/{u}_samples.jsonl", "wb").write(bad)
    write(f"{b}/no_instance_score/{u}.json", json.dumps(eee_aggregate("0.3.0", u, f"{u}_samples.jsonl", bad, EEE_ROWS), indent=2))
    os.makedirs(f"{b}/checksum", exist_ok=True)
    open(f"{b}/checksum/{u}_samples.jsonl", "wb").write(inst.replace(b'"540"]}, "answer', b'"541"]}, "answer'))
    write(f"{b}/checksum/{u}.json", json.dumps(agg, indent=2))
    os.makedirs(f"{b}/no_file", exist_ok=True)
    write(f"{b}/no_file/{u}.json", json.dumps(agg, indent=2))

# ---------------------------------------------------------------- lighteval
def lighteval():
    shutil.rmtree("lighteval/new/results", ignore_errors=True)
    shutil.rmtree("lighteval/old", ignore_errors=True)
    em = [1, 0, 1, 1]
    date = "2026-12-01T10-00-00.000000"
    results = {"lighteval|mgsm:bn|0": {"em": mean(em), "em_stderr": stderr(em)}, "all": {"em": mean(em), "em_stderr": stderr(em)}}
    base = {"results": results, "versions": {"lighteval|mgsm:bn|0": 0},
            "config_tasks": {"lighteval|mgsm:bn": {"name": "mgsm:bn", "metric": [{"metric_name": "em"}]}},
            "summary_tasks": {"lighteval|mgsm:bn|0": {"hashes": {}, "truncated": 0, "non_truncated": 4, "padded": 0, "non_padded": 4}},
            "summary_general": {"truncated": 0, "non_truncated": 4}}
    new = dict(base, config_general={"lighteval_sha": "0", "num_fewshot_seeds": 1, "max_samples": None, "job_id": "0",
                                      "model_config": {"model_name": "evalbook/tiny-bn"}, "model_name": None})
    write(f"lighteval/new/results/evalbook/tiny-bn/results_{date}.json", json.dumps(new, indent=2))
    # the details file the Parquet reader reads; here only its name and place matter
    # (lighteval names it details_lighteval|mgsm:bn|0_<date>.parquet; | and : are not
    # allowed in Go module file names, so the fixture uses the _ form, which is also read)
    # The details file itself is real Parquet, written by pkg/parquetio's
    # TestInteropFixture (go test -run TestInteropFixture ./pkg/parquetio -args -write-fixture),
    # with the same em values; rmtree above removes it, so run that test after this script.
    old = dict(base, config_general={"lighteval_sha": "0", "model_name": "evalbook/tiny-bn", "model_sha": "", "model_dtype": "torch.bfloat16"})
    write(f"lighteval/old/results_{date}.json", json.dumps(old, indent=2))

# ---------------------------------------------------------------- OpenAI Batch API
def batch():
    shutil.rmtree("openai_batch", ignore_errors=True)
    qs = [("q1", "भारत की राजधानी?", "नई दिल्ली", "hi", "नई दिल्ली"), ("q2", "বাংলার রাজধানী?", "ঢাকা", "bn", "ঢাকা"),
          ("q3", "2+2?", "4", "en", None), ("q4", "গঙ্গা কোথায়?", "ভারত", "bn", "ভারতে")]
    reqs = [{"custom_id": q[0], "method": "POST", "url": "/v1/chat/completions",
             "body": {"model": "gpt-4o-mini", "messages": [{"role": "system", "content": "Answer in one word."}, {"role": "user", "content": q[1]}],
                      "max_tokens": 20, "metadata": {"answer": q[2], "language": q[3]}}} for q in qs]
    outs = []
    for i, q in enumerate(reversed(qs)):  # the Batch API returns lines in any order
        if q[4] is None:
            outs.append({"id": f"batch_req_{i}", "custom_id": q[0], "response": None,
                         "error": {"code": "rate_limit_exceeded", "message": "Rate limit reached"}})
        else:
            outs.append({"id": f"batch_req_{i}", "custom_id": q[0], "response": {"status_code": 200, "request_id": f"req_{i}", "body": {
                "id": f"chatcmpl-{i}", "object": "chat.completion", "created": 1764583200, "model": "gpt-4o-mini-2024-07-18",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": q[4]}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 15, "completion_tokens": 3, "total_tokens": 18}}}, "error": None})
    jsonl("openai_batch/batch_input.jsonl", reqs)
    jsonl("openai_batch/batch_output.jsonl", outs)
    jsonl("openai_batch/broken/batch_output.jsonl", outs + [{"id": "x", "custom_id": "q9", "response": {"status_code": 200, "body": {}}, "error": None}])
    jsonl("openai_batch/broken/batch_input.jsonl", reqs)

if __name__ == "__main__":
    lighteval()
    batch()
    eee()
    promptfoo()
    lmeval()
    inspect()
