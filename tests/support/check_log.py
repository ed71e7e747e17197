"""The failure log the end-to-end tests share: check() records and prints a failed expectation and
returns whether it held; a test exits with exit_code(): non-zero when FAILURES is not empty."""

FAILURES = []


def check(condition, what, detail=""):
    if not condition:
        FAILURES.append(what)
        print(f"FAIL: {what}" + (f"\n      {detail}" if detail else ""), flush=True)
    return condition


def exit_code():
    """Prints the failures (or "all passed") and returns the test's exit status."""
    if FAILURES:
        print("%d failure(s): %s" % (len(FAILURES), FAILURES), flush=True)
        return 1
    print("all passed", flush=True)
    return 0
