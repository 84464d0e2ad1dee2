# Workload for scripts/semantics.sh: deterministic output only (no ids, hashes of objects,
# times or dict iteration order that could vary).
from __future__ import print_function

import collections
import json
import re
import string


class Account(object):
    """A bank account with a history and an overdraft check."""

    fee = 0.5

    def __init__(self, owner, balance=0):
        self.owner = owner
        self.balance = balance
        self.history = []

    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("deposit must be positive: %r" % (amount,))
        self.balance += amount
        self.history.append(("deposit", amount))
        return self

    def withdraw(self, amount):
        if amount + self.fee > self.balance:
            raise InsufficientFunds(self.owner, amount, self.balance)
        self.balance -= amount + self.fee
        self.history.append(("withdraw", amount))
        return self

    def __repr__(self):
        return "Account(%s, %.2f)" % (self.owner, self.balance)

    def __lt__(self, other):
        return (self.balance, self.owner) < (other.balance, other.owner)


class InsufficientFunds(Exception):
    def __init__(self, owner, amount, balance):
        Exception.__init__(self, "%s cannot withdraw %d (balance %.2f)" % (owner, amount, balance))
        self.owner = owner


class Savings(Account):
    fee = 0

    def add_interest(self, rate):
        self.balance = round(self.balance * (1 + rate), 2)
        return self


def word_stats(text):
    words = re.findall(r"[a-z']+", text.lower())
    counts = collections.Counter(words)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def rot13(s):
    lower = string.ascii_lowercase
    upper = string.ascii_uppercase
    table = dict(zip(lower + upper, lower[13:] + lower[:13] + upper[13:] + upper[:13]))
    return "".join(table.get(c, c) for c in s)


def primes(limit):
    sieve = [True] * (limit + 1)
    sieve[0] = sieve[1] = False
    for i in range(2, int(limit ** 0.5) + 1):
        if sieve[i]:
            for j in range(i * i, limit + 1, i):
                sieve[j] = False
    return [i for i, p in enumerate(sieve) if p]


def fib_gen():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


TEXT = """It was the best of times, it was the worst of times, it was the age of wisdom,
it was the age of foolishness, it was the epoch of belief, it was the epoch of incredulity,
it was the season of Light, it was the season of Darkness, it was the spring of hope,
it was the winter of despair, we had everything before us, we had nothing before us."""


def main():
    print("== words")
    for word, n in word_stats(TEXT)[:12]:
        print("%-12s %3d %s" % (word, n, "*" * n))
    print("distinct:", len(set(re.findall(r"\w+", TEXT.lower()))))

    print("== strings")
    print(rot13("Hello, Jython World!"), "|", rot13(rot13("Hello, Jython World!")))
    print(" ".join(w.capitalize() for w in "the quick brown fox".split()))
    print("-".join(reversed("a,b,c,d".split(","))), "centered:[%s]" % "mid".center(9, "."))
    print("{0:>8}|{1:<8}|{2:^8}|{3:08.3f}".format("right", "left", "mid", 3.14159))
    print(sorted(set("mississippi")), "mississippi".count("ss"), "mississippi".replace("ss", "SS"))

    print("== numbers")
    ps = primes(500)
    print(len(ps), ps[:10], ps[-5:], sum(ps))
    gen = fib_gen()
    fibs = [next(gen) for _ in range(60)]
    print(fibs[-1], sum(f for f in fibs if f % 2 == 0), 2 ** 100, divmod(-17, 5), 7 // -2)
    print(reduce(lambda x, y: x * y, range(1, 21)), "%.6e" % (1.0 / 3), int("ff", 16), oct(64))

    print("== accounts")
    accounts = [Account("alice", 100), Savings("bob", 250), Account("carol"), Savings("dave", 40)]
    accounts[0].deposit(50).withdraw(30)
    accounts[1].add_interest(0.05).withdraw(100)
    accounts[2].deposit(10)
    for acct in accounts:
        try:
            acct.withdraw(60)
        except InsufficientFunds as e:
            print("refused:", e, "->", e.owner)
        finally:
            acct.history.append(("checked", 0))
    try:
        accounts[3].deposit(-5)
    except ValueError as e:
        print("error:", e)
    for acct in sorted(accounts):
        kinds = collections.OrderedDict()
        for kind, amount in acct.history:
            kinds[kind] = kinds.get(kind, 0) + amount
        print(repr(acct), type(acct).__name__, isinstance(acct, Savings), list(kinds.items()))

    print("== data")
    inventory = {"pears": 3, "apples": 12, "kiwis": 0, "figs": 7, "plums": 12}
    by_count = collections.defaultdict(list)
    for name, n in sorted(inventory.items()):
        by_count[n].append(name)
    print(sorted(by_count.items()))
    print(json.dumps(inventory, sort_keys=True), json.loads('{"a": [1, 2.5, null, true]}')["a"])
    matrix = [[i * j for j in range(1, 5)] for i in range(1, 5)]
    print(list(zip(*matrix))[2], [row[::-1] for row in matrix][0], max(map(sum, matrix)))
    squares = dict((k, k * k) for k in range(8) if k % 2)
    print(sorted(squares.items()), any(v > 40 for v in squares.values()), all(squares))
    try:
        {}["missing"]
    except KeyError as e:
        print("KeyError", e)
    try:
        raise RuntimeError("nested")
    except RuntimeError:
        try:
            1 / 0
        except ZeroDivisionError as e:
            print("ZeroDivisionError:", e)


if __name__ == "__main__":
    main()
