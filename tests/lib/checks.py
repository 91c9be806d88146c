"""Counted checks for the Python test scripts: check() counts each check and prints the
ones that fail; done() ends the script with the count when all passed, or exit status 1.
A script imports it from tests/lib (meson runs the scripts from the source tree):

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
    from checks import check, done"""
import sys

failed = 0
count = 0  # the checks so far


def check(what, ok, detail=''):
    """Count a check; when not ok, print 'FAIL: WHAT DETAIL' and mark the run failed."""
    global failed, count
    count += 1
    if not ok:
        print('FAIL: %s %s' % (what, detail))
        failed = 1


def done(what):
    """Print 'ok: N checks of WHAT' when none failed, and exit (1 when any did)."""
    if not failed:
        print('ok: %d checks of %s' % (count, what))
    sys.exit(failed)
