#!/usr/bin/env python3
"""Writes testdata/malformed/: small harness outputs, each wrong in one way
that import --check must not call agreement (issue 26 items 4 and 5).
Run from pkg/interop/testdata: python3 make_malformed.py

Every figure below is computed by hand in the comment beside it.
The ZIP cases (an .eval member twice, a member named ../x) and the
symbolic link are built by the Go tests themselves, in a temporary folder.
"""
import json
import os
import shutil

OUT = "malformed"
DATE = "2026-12-01T10-00-00.000000"


def write(path, text):
    path = os.path.join(OUT, path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def jsonl(rows):
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def lm_sample(doc_id, acc, raw_acc=None):
    r = {"doc_id": doc_id, "doc": {"q": "प्रश्न %d" % doc_id}, "target": "0",
         "arguments": {"gen_args_0": {"arg_0": "प्रश्न %d" % doc_id, "arg_1": " क"}},
         "resps": [[["-0.5", "True"]]], "filtered_resps": [["-0.5", "True"]],
         "filter": "none", "metrics": ["acc"], "doc_hash": "%064x" % doc_id,
         "prompt_hash": "%064x" % (doc_id + 1000), "target_hash": "0" * 64, "acc": acc}
    return r


def lm_results(task, acc, n_effective, n_original=None, raw=None):
    res = {"alias": task, "acc,none": acc if raw is None else raw}
    return json.dumps({"results": {task: res}, "group_subtasks": {task: []},
                       "configs": {task: {"task": task}}, "versions": {task: 1.0},
                       "n-samples": {task: {"original": n_original or n_effective, "effective": n_effective}},
                       "config": {"model": "hf", "model_args": "pretrained=evalbook/tiny-hi"},
                       "model_name": "evalbook/tiny-hi"}, ensure_ascii=False, indent=1)


def lmeval(case, results, samples):
    d = "lmeval_%s/evalbook__tiny-hi/" % case
    if results is not None:
        write(d + "results_%s.json" % DATE, results)
    if samples is not None:
        write(d + "samples_arc_hi_%s.jsonl" % DATE, jsonl(samples))


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    ten = [lm_sample(i, 1 if i % 2 == 0 else 0) for i in range(10)]  # acc 5/10 = 0.5
    # 10 of the 5,000 samples the results file declares: the mean of the
    # 10 is 0.5 and the claim is 0.5, but it covers 5,000 documents
    lmeval("partial", lm_results("arc_hi", 0.5, 5000), ten)
    # a false claim (0.75) hidden by one string value: the four values are
    # 1, 0, "1" (a string), 0, so the numbers' mean is 1/3, and with the
    # string skipped nothing would be checked; the check must name line 3
    four = [lm_sample(0, 1), lm_sample(1, 0), lm_sample(2, "1"), lm_sample(3, 0)]
    lmeval("string_value", lm_results("arc_hi", 0.75, 4), four)
    # a claim typed as a string: "0.5" where lm-eval writes a number
    lmeval("string_claim", lm_results("arc_hi", 0.5, 10, raw="0.5"), ten)
    # a results file with no samples beside it
    lmeval("no_samples", lm_results("arc_hi", 0.5, 10), None)
    # doc_id 1 twice (lines 2 and 5): the five lines' mean is 3/5 = 0.6,
    # the four documents' mean (1, 1, 0, 0) is 0.5, the claim
    dup = [lm_sample(0, 1), lm_sample(1, 1), lm_sample(2, 0), lm_sample(3, 0), lm_sample(1, 1)]
    lmeval("dup_doc", lm_results("arc_hi", 0.5, 4), dup)
    # a NaN value on line 2 (doc_id 1): the other three's mean is 2/3; the
    # claim 2/3 would "agree" with n 3 if the NaN were dropped silently
    nan = [lm_sample(0, 1), lm_sample(1, float("nan")), lm_sample(2, 1), lm_sample(3, 0)]
    lmeval("nan", lm_results("arc_hi", 2 / 3, 4), nan)

    # inspect .json logs: a score that is a list, and a sample id twice
    base = json.load(open("inspect/qa_hi_bn.json", encoding="utf-8"))
    log = json.loads(json.dumps(base))
    log["samples"][2]["scores"]["includes"]["value"] = [1, 0]  # sample id 3
    write("inspect/list_score.json", json.dumps(log, ensure_ascii=False, indent=1))
    log = json.loads(json.dumps(base))
    log["samples"].append(json.loads(json.dumps(log["samples"][1])))  # id 2 again, as samples[5]
    write("inspect/dup_id.json", json.dumps(log, ensure_ascii=False, indent=1))

    # a promptfoo result twice (results[0] again at the end)
    pf = json.load(open("promptfoo/results_v3.json", encoding="utf-8"))
    pf["results"]["results"].append(json.loads(json.dumps(pf["results"]["results"][0])))
    write("promptfoo/dup_result.json", json.dumps(pf, ensure_ascii=False, indent=1))

    # an OpenAI batch output with line 1's custom_id again on its last line
    lines = open("openai_batch/batch_output.jsonl", encoding="utf-8").read().splitlines()
    write("openai_batch/batch_output.jsonl", "\n".join(lines + [lines[0]]) + "\n")
    shutil.copy("openai_batch/batch_input.jsonl", os.path.join(OUT, "openai_batch/batch_input.jsonl"))

    # Every Eval Ever aggregates naming a per-sample file outside their
    # folder (absolute, and ../), and an instance whose score is a string
    uuid = "6f1c2a8e-0b1d-4c55-9a77-3e2d1c0b9a88"
    src = "eee/v030/data/mgsm_bn/evalbook/tiny-bn/"
    agg = json.load(open(src + uuid + ".json", encoding="utf-8"))
    inst = open(src + uuid + "_samples.jsonl", encoding="utf-8").read()
    for case, fp in [("eee_absolute", "/etc/passwd"), ("eee_dotdot", "../outside/" + uuid + "_samples.jsonl")]:
        a = json.loads(json.dumps(agg))
        a["detailed_evaluation_results"]["file_path"] = fp
        write(case + "/" + uuid + ".json", json.dumps(a, ensure_ascii=False, indent=1))
    # the ../ target exists, so only the rule keeps it from being read
    write("outside/" + uuid + "_samples.jsonl", inst)
    rows = [json.loads(l) for l in inst.splitlines() if l.strip()]
    rows[1]["evaluation"]["score"] = "1"
    write("eee_string_score/" + uuid + ".json", json.dumps(agg, ensure_ascii=False, indent=1))
    write("eee_string_score/" + uuid + "_samples.jsonl", jsonl(rows))


if __name__ == "__main__":
    main()
