"""Write the seed inputs of fuzz_ocdbt (fuzz/corpus/ocdbt/seed_*): small
OCDBT stores in one byte string, an uncompressed manifest followed by the
B+tree nodes it refers to, encoded as TensorStore's kvstore/ocdbt "Storage
format" document describes. Run: python3 fuzz/make_ocdbt_seeds.py
"""
import os
import struct


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def frame(magic, body):
    head_len = 4 + 8 + 2
    total = head_len + len(body) + 4
    data = struct.pack(">I", magic) + struct.pack("<Q", total) + varint(0) + varint(0) + body
    return data + struct.pack("<I", crc32c(data))


def table(paths):
    out = varint(len(paths))
    out += b"".join(varint(0) for _ in paths[1:])
    out += b"".join(varint(len(p)) for p in paths)
    out += b"".join(varint(0) for _ in paths)
    return out + b"".join(paths)


def leaf(entries, paths):
    """entries: (key, value bytes) inline, or (key, (file, offset, length))."""
    body = bytes([0]) + table(paths) + varint(len(entries))
    body += b"".join(varint(0) for _ in entries[1:])
    body += b"".join(varint(len(k)) for k, _ in entries)
    body += b"".join(k for k, _ in entries)
    body += b"".join(varint(len(v) if isinstance(v, bytes) else v[2]) for _, v in entries)
    body += b"".join(varint(0 if isinstance(v, bytes) else 1) for _, v in entries)
    ind = [v for _, v in entries if not isinstance(v, bytes)]
    body += b"".join(varint(f) for f, _, _ in ind) + b"".join(varint(o) for _, o, _ in ind)
    body += b"".join(v for _, v in entries if isinstance(v, bytes))
    return frame(0x0CDB20DE, body)


def manifest(node_off, node_len, nkeys):
    for _ in range(4):  # the offset depends on the manifest's length
        cfg = bytes(16) + varint(0) + varint(1024) + varint(1 << 20) + bytes([4]) + varint(0)
        versions = (varint(1) + varint(1) + bytes([0]) + varint(0) + varint(node_off)
                    + varint(node_len) + varint(nkeys) + varint(node_len) + varint(0)
                    + struct.pack("<Q", 1))
        m = frame(0x0CDB3A2A, cfg + table([b"d/seed"]) + versions + varint(0))
        if len(m) == node_off:
            return m
        node_off = len(m)
    raise RuntimeError("no fixed point")


def store(entries):
    probe = leaf(entries, [b"d/seed"])
    m = manifest(0, len(probe), len(entries))
    # Indirect values point after the node; rebuild once offsets are known.
    return m + probe


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "ocdbt")
    os.makedirs(out, exist_ok=True)
    z = b'{"chunks":[2],"compressor":null,"dtype":"<f4","shape":[4],"zarr_format":2}'
    seeds = [
        [(b"w/.zarray", z), (b"w/0", bytes(8)), (b"w/1", b"\x00\x00\x80?\x00\x00\x00@")],
        [(b"a", b"x"), (b"ab", b""), (b"abc", b"yz")],
        [(b"k", (0, 0, 16)), (b"v", b"inline")],
    ]
    for i, s in enumerate(seeds):
        with open(os.path.join(out, f"seed_{i}"), "wb") as f:
            f.write(store(s))


if __name__ == "__main__":
    main()
