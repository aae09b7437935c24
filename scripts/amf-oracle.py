#!/usr/bin/env python3
"""Prints AMF3 samples encoded by PyPI's py3amf, an independent codec: Tests/AMFTests/AMFOracleTests.swift holds
them and checks that Understudy's decoder reads each as the value named here. Run it (pip install py3amf) after
changing a sample, and paste its output into the test's table.

Usage: scripts/amf-oracle.py
"""
import datetime

import pyamf
import pyamf.amf3 as amf3


class Typed:
    pass


pyamf.register_class(Typed, "com.example.Typed")


def encoded(value):
    encoder = amf3.Encoder()
    encoder.writeElement(value)
    return encoder.stream.getvalue().hex()


def typed(x, y):
    item = Typed()
    item.x, item.y = x, y
    return item


date = datetime.datetime(2020, 1, 2, 3, 4, 5)
samples = [
    ("string", "hello"),
    ("repeated string", [1, "a", "a"]),
    ("anonymous object", {"a": 1, "b": "x"}),
    ("date", date),
    ("typed objects, traits by reference", [typed(1, "y"), typed(2, "z")]),
    ("negative int", -7),
    ("largest int", 268435455),
    ("int beyond 29 bits", 268435456),
    ("double", 2.5),
    ("true", True),
    ("null", None),
    ("associative array", pyamf.MixedArray(a=1, b=2)),
    ("date by reference", [date, date]),
    ("unicode", "żółw ☃"),
    ("byte array", amf3.ByteArray(b"\x00\x01\xff")),
]
for name, value in samples:
    print(f'("{name}", "{encoded(value)}"),')
