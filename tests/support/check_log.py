"""The failure log the end-to-end tests share: check() records and prints a failed expectation and
returns whether it held; a test exits non-zero when FAILURES is not empty."""

FAILURES = []


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print(f"FAIL: {what}" + (f"\n      {detail}" if detail else ""), flush=True)
    return condition
