# ruff: noqa: E501
"""The thirteenth held-out canary set, written blind: its author read neither the library's
recognizers nor any other generator's templates, only ``bench/_plant.py``, ``KINDS`` and
``Canary`` of ``bench/canaries.py``, ``bench/_generators.py``, ``tests/test_generators.py``,
``tests/corpus.py``, a few corpus records and the opening lines of ``heldout_k.py``.

Its value shapes come from infrastructure (Kubernetes namespaces, objects and label
selectors, cron schedules, S3 and GCS URIs, image digests and tags, semver ranges and
build metadata, git refspecs, fake JWTs, UUIDv7s and ULIDs, MAC addresses, link-local IPv6
with zone ids, CIDR blocks, host:port, AWS ARNs, Azure resource ids, Terraform addresses,
trace contexts, SSH fingerprints, environment variables, feature-flag keys, PromQL, regexes,
quoted SQL identifiers, paths with spaces, UNC shares), publishing and finance (ISBN-13 and
ISSN with check digits, DOIs, arXiv ids, ORCIDs, LEIs with mod-97 checks, BICs), shipping and
rail (ISO 6346 container codes, UIC station ids), weather (METAR groups), labs (reagent lots,
slashed serials, temperatures), time (RFC 3339 with offsets, ISO weeks, ISO 8601 durations),
money in nine national formats, DMS coordinates, postal codes of nine countries, Vietnamese,
Greek and Cyrillic names, hashtags, Slack channels and Jira keys.

Voices: terse chat, memos, apologies, checklists, policy excerpts, config comments, war
stories, tool outputs (JSON, tables, diffs, logs, localized errors), and Spanish, Dutch,
Japanese, Polish, Italian and Portuguese. Corrections come as "nvm", memo revisions,
apologies, tool outputs showing the new value, bare restatements, parentheses, bullet lists,
Markdown tables, arrows, diffs, quoted replies, forwarded notes and pronoun or synonym
subjects.

Once it has been read to tune the library it is no longer held out.
"""

from __future__ import annotations

import ipaddress
import random
import string

from _plant import generator

__all__ = ["plant"]

_WORDS = (
    "amber basalt cedar delta ember fjord garnet harbor indigo juniper kestrel lumen marlin "
    "nimbus onyx pylon quartz raven saffron tundra umber vesper willow yarrow zephyr bramble "
    "cobalt dune glacier heron jasper kelp lagoon mesa orchid prism quill ridge sable thistle "
    "alder birch cinder drift falcon grove hollow islet lichen moraine nettle otter pebble"
).split()
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_B64URL = string.ascii_letters + string.digits + "-_"
_B64 = string.ascii_letters + string.digits + "+/"


def _w(r: random.Random) -> str:
    return r.choice(_WORDS)


def _cap(r: random.Random) -> str:
    return _w(r).capitalize()


def _digits(r: random.Random, n: int) -> str:
    return "".join(r.choice(string.digits) for _ in range(n))


def _hex(r: random.Random, n: int) -> str:
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


def _chars(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choice(alphabet) for _ in range(n))


def _upper(r: random.Random, n: int) -> str:
    return _chars(r, string.ascii_uppercase, n)


def _b36(r: random.Random, n: int) -> str:
    return _chars(r, string.ascii_lowercase + string.digits, n)


def _uuid4(r: random.Random) -> str:
    h = _hex(r, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def _group(n: int, sep: str) -> str:
    return f"{n:,}".replace(",", sep)


def _indian(n: int) -> str:
    s = str(n)
    head, tail = s[:-3], s[-3:]
    parts = []
    while len(head) > 2:
        parts.insert(0, head[-2:])
        head = head[:-2]
    if head:
        parts.insert(0, head)
    return ",".join([*parts, tail]) if parts else tail


# --- infrastructure ---------------------------------------------------------------------


def _k8s_ns(r: random.Random) -> str:
    env = r.choice(["dev", "stg", "prod", "qa", "sbx", "canary", "perf"])
    return f"{_w(r)}-{env}-{_b36(r, 4)}"


def _k8s_obj(r: random.Random) -> str:
    kind = r.choice(["deployment", "statefulset", "cronjob", "daemonset", "job", "ingress"])
    role = r.choice(["api", "writer", "ingest", "compactor", "gateway", "relay", "indexer"])
    return f"{kind}/{_w(r)}-{role}-{_b36(r, 5)}"


def _k8s_selector(r: random.Random) -> str:
    tier = r.choice(["backend", "frontend", "batch", "edge", "db"])
    return f"app.kubernetes.io/name={_w(r)}-{_w(r)},tier={tier}"


def _cron(r: random.Random) -> str:
    dow = r.choice(["1-5", "MON-FRI", "0,6", "SAT", "2,4", "*"])
    h = r.randint(0, 20)
    return r.choice(
        [
            f"{r.randint(1, 59)} {h} * * {dow}",
            f"*/{r.choice([5, 10, 15, 20, 30])} {h}-{h + r.randint(1, 3)} * * {dow}",
            f"{r.randint(1, 59)} {h} {r.randint(1, 28)} */{r.choice([2, 3, 6])} *",
        ]
    )


def _s3(r: random.Random) -> str:
    region = r.choice(["eu-central-1", "us-east-2", "ap-northeast-1", "sa-east-1"])
    ext = r.choice(["parquet", "csv.gz", "tar.zst", "jsonl"])
    return (
        f"s3://{_w(r)}-{_w(r)}-{region}/{_w(r)}/{r.randint(2022, 2026)}/"
        f"{r.randint(1, 12):02d}/part-{_digits(r, 5)}.{ext}"
    )


def _gcs(r: random.Random) -> str:
    n = r.randint(8, 512)
    return (
        f"gs://{_w(r)}_{_w(r)}_{_digits(r, 3)}/exports/{r.randint(2023, 2026)}-"
        f"{r.randint(1, 12):02d}-{r.randint(1, 28):02d}/shard-{r.randint(0, n - 1):05d}-of-{n:05d}.avro"
    )


_REGISTRIES = ["ghcr.io", "registry.gitlab.example", "quay.io", "cr.internal.example:5000"]


def _digest(r: random.Random) -> str:
    return f"{r.choice(_REGISTRIES)}/{_w(r)}/{_w(r)}@sha256:{_hex(r, 64)}"


def _image_tag(r: random.Random) -> str:
    variant = r.choice(["alpine3.19", "bookworm-slim", "distroless-nonroot", "ubi9", "jammy"])
    ver = f"{r.randint(0, 9)}.{r.randint(0, 30)}.{r.randint(0, 40)}"
    return f"{r.choice(_REGISTRIES)}/{_w(r)}/{_w(r)}:{ver}-{variant}"


def _semver_range(r: random.Random) -> str:
    a, b, c = r.randint(1, 29), r.randint(0, 40), r.randint(0, 60)
    return r.choice(
        [
            f"^{a}.{b}.{c}",
            f"~{a}.{b}.{c}",
            f">={a}.{b}.{c},<{a}.{b + 1}",
            f">={a}.{b}.{c} <{a + 1}.0.0",
            f"{a}.{b}.x",
        ]
    )


def _refspec(r: random.Random) -> str:
    br = f"{r.choice(['feature', 'release', 'hotfix'])}/{_w(r)}-{_digits(r, 3)}"
    n = r.randint(100, 9999)
    tag = f"v{r.randint(0, 9)}.{r.randint(0, 30)}.{r.randint(0, 40)}"
    return r.choice(
        [
            f"+refs/heads/{br}:refs/remotes/origin/{br}",
            f"refs/pull/{n}/head:pr/{n}",
            f"refs/tags/{tag}:refs/tags/{tag}",
        ]
    )


def _jwt(r: random.Random) -> str:
    head = r.choice(["eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", "eyJhbGciOiJFUzI1NiJ9"])
    return f"{head}.eyJ{_chars(r, _B64URL, r.randint(30, 60))}.{_chars(r, _B64URL, 43)}"


def _uuid7(r: random.Random) -> str:
    ts = f"{r.randint(0x018F00000000, 0x019AFFFFFFFF):012x}"
    return f"{ts[:8]}-{ts[8:]}-7{_hex(r, 3)}-{r.choice('89ab')}{_hex(r, 3)}-{_hex(r, 12)}"


def _ulid(r: random.Random) -> str:
    return f"01{r.choice('HJK')}{_chars(r, _CROCKFORD, 23)}"


def _mac(r: random.Random) -> str:
    b = [r.randint(0, 255) for _ in range(6)]
    h = [f"{x:02x}" for x in b]
    return r.choice([":".join(h), "-".join(h).upper(), f"{h[0]}{h[1]}.{h[2]}{h[3]}.{h[4]}{h[5]}"])


def _ipv6_zone(r: random.Random) -> str:
    iface = r.choice(["eth0", "en0", "wlp3s0", "ens192", "bond0.40", "enp0s31f6"])
    return (
        f"fe80::{r.randint(1, 0xFFFF):x}:{r.randint(0, 255):02x}ff:fe{r.randint(0, 255):02x}:"
        f"{r.randint(1, 0xFFFF):x}%{iface}"
    )


def _cidr(r: random.Random) -> str:
    if r.random() < 0.3:
        base = int(ipaddress.IPv6Address("2001:db8::"))
        addr = ipaddress.IPv6Address(base + r.getrandbits(96))
        return str(ipaddress.ip_network(f"{addr}/{r.choice([48, 52, 56, 60, 64])}", strict=False))
    net = ipaddress.ip_network(r.choice(["10.0.0.0/8", "172.16.0.0/12", "100.64.0.0/10"]))
    addr = ipaddress.IPv4Address(int(net.network_address) + r.getrandbits(32 - net.prefixlen))
    return str(ipaddress.ip_network(f"{addr}/{r.randint(16, 28)}", strict=False))


def _hostport(r: random.Random) -> str:
    port = r.choice([5432, 6379, 8443, 9092, 27017, 3306, r.randint(20000, 32767)])
    return r.choice(
        [
            f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(2, 254)}:{port}",
            f"[fd{_hex(r, 2)}:{r.randint(1, 0xFFFF):x}::{r.randint(1, 0xFFF):x}]:{port}",
            f"{_w(r)}-{r.randint(1, 40):02d}.{_w(r)}.internal:{port}",
        ]
    )


_AWS_REGIONS = ["eu-west-1", "eu-north-1", "us-west-2", "ap-southeast-2", "ca-central-1"]


def _arn(r: random.Random) -> str:
    acct, reg = f"{r.randint(1, 9)}{_digits(r, 11)}", r.choice(_AWS_REGIONS)
    return r.choice(
        [
            f"arn:aws:iam::{acct}:role/{_w(r)}-{_w(r)}-{r.choice(['deployer', 'reader', 'ci'])}",
            f"arn:aws:lambda:{reg}:{acct}:function:{_w(r)}-{_w(r)}",
            f"arn:aws:sqs:{reg}:{acct}:{_w(r)}-{_w(r)}-dlq",
            f"arn:aws:kms:{reg}:{acct}:key/{_uuid4(r)}",
        ]
    )


def _azure_id(r: random.Random) -> str:
    region = r.choice(["weu", "neu", "eus2", "sea", "uks"])
    prov, name = r.choice(
        [
            ("Microsoft.Storage/storageAccounts", f"st{_w(r)}{_digits(r, 3)}"),
            ("Microsoft.Web/sites", f"app-{_w(r)}-{_w(r)}-{_digits(r, 2)}"),
            ("Microsoft.KeyVault/vaults", f"kv-{_w(r)}-{_digits(r, 2)}"),
            ("Microsoft.ContainerService/managedClusters", f"aks-{_w(r)}-{_digits(r, 2)}"),
        ]
    )
    return f"/subscriptions/{_uuid4(r)}/resourceGroups/rg-{_w(r)}-{region}/providers/{prov}/{name}"


def _tf_addr(r: random.Random) -> str:
    return r.choice(
        [
            f'module.{_w(r)}.aws_subnet.{_w(r)}["{r.choice(_AWS_REGIONS)}{r.choice("abc")}"]',
            f"module.{_w(r)}.module.{_w(r)}.google_sql_database_instance.this[{r.randint(0, 9)}]",
            f"azurerm_storage_account.{_w(r)}_{_w(r)}",
            f'aws_s3_bucket.{_w(r)}["{_w(r)}-{_digits(r, 3)}"]',
        ]
    )


def _traceparent(r: random.Random) -> str:
    return f"00-{_hex(r, 32)}-{_hex(r, 16)}-0{r.choice('01')}"


def _ssh_fp(r: random.Random) -> str:
    return f"SHA256:{_chars(r, _B64, 43)}"


def _env_var(r: random.Random) -> str:
    tail = r.choice(["MAX_INFLIGHT", "TIMEOUT_MS", "ENDPOINT", "STRICT_MODE", "BATCH_SIZE"])
    return f"{_w(r).upper()}_{_w(r).upper()}_{tail}"


def _flag_key(r: random.Random) -> str:
    return r.choice(
        [
            f"{_w(r)}.{_w(r)}-{_w(r)}.{r.choice(['rollout', 'beta', 'killswitch'])}",
            f"ff_{_w(r)}_{_w(r)}_{r.choice(['eu', 'apac', 'us', 'latam'])}",
            f"release/{_w(r)}-{_w(r)}-v{r.randint(2, 9)}",
        ]
    )


def _promql(r: random.Random) -> str:
    job = f"{_w(r)}-{_w(r)}"
    return r.choice(
        [
            f'histogram_quantile(0.{r.choice([9, 95, 99])}, sum by (le) (rate({_w(r)}_request_seconds_bucket{{job="{job}"}}[{r.randint(2, 15)}m])))',
            f'rate({_w(r)}_{_w(r)}_errors_total{{job="{job}"}}[{r.randint(2, 30)}m]) > 0.{r.randint(1, 9)}',
        ]
    )


def _regex(r: random.Random) -> str:
    return r.choice(
        [
            rf"^{_upper(r, 3)}-\d{{{r.randint(3, 6)}}}-[A-Z]{{{r.randint(2, 3)}}}$",
            rf"(?i)\b{_w(r)}[-_]?v(\d+)\b",
            rf"^[a-z0-9._%+-]+@{_w(r)}\.{r.choice(['io', 'de', 'nl', 'co.jp'])}$",
            rf"^(?P<{_w(r)}>[0-9a-f]{{{r.randint(6, 12)}}})/{_w(r)}\.json$",
        ]
    )


def _sql_ident(r: random.Random) -> str:
    return r.choice(
        [
            f'"{_cap(r)}"."{_w(r)}_{_w(r)}_v{r.randint(2, 9)}"',
            f"[dbo].[{_cap(r)} {_cap(r)} {r.randint(2019, 2026)}]",
            f"`{_w(r)}_{_digits(r, 2)}`.`{_w(r)}_{_w(r)}`",
            f'"{_w(r)}"."{_cap(r)}Events"."{_w(r)}_at"',
        ]
    )


def _spaced_path(r: random.Random) -> str:
    return r.choice(
        [
            f"/Users/{_cap(r)} {_cap(r)}/Projects/Q{r.randint(1, 4)} {_cap(r)}/{_w(r)} inputs v{r.randint(2, 9)}.xlsx",
            f"/srv/shared/{_cap(r)} Team/{r.randint(2022, 2026)} close/{_w(r)} notes {_digits(r, 2)}.md",
            f"/mnt/lab data/{_cap(r)} {_cap(r)}/run {r.randint(1, 99)}/raw.csv",
        ]
    )


def _unc(r: random.Random) -> str:
    host = f"fs-{r.choice(['ams', 'waw', 'osa', 'mad'])}-{r.randint(1, 9):02d}"
    return f"\\\\{host}\\{_w(r)}$\\{_cap(r)}\\{r.randint(2021, 2026)}\\{_w(r)}_{_digits(r, 3)}"


def _semver_build(r: random.Random) -> str:
    base = f"{r.randint(0, 12)}.{r.randint(0, 40)}.{r.randint(0, 30)}"
    pre = f"{r.choice(['rc', 'beta', 'alpha', 'dev'])}.{r.randint(1, 12)}"
    meta = r.choice(
        [
            f"build.{r.randint(2023, 2026)}{r.randint(1, 12):02d}{r.randint(1, 28):02d}.sha.{_hex(r, 7)}",
            f"exp.sha.{_hex(r, 7)}",
            f"ci.{_digits(r, 5)}",
        ]
    )
    return f"{base}-{pre}+{meta}"


# --- publishing, finance, logistics -----------------------------------------------------


def _isbn13(r: random.Random) -> str:
    prefix = r.choice(["978", "979"])
    body = _digits(r, 9)
    digits = prefix + body
    check = (10 - sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(digits))) % 10
    k = r.randint(2, 5)
    return f"{prefix}-{body[0]}-{body[1 : 1 + k]}-{body[1 + k :]}-{check}"


def _issn(r: random.Random) -> str:
    d = _digits(r, 7)
    c = (11 - sum(int(x) * (8 - i) for i, x in enumerate(d)) % 11) % 11
    return f"{d[:4]}-{d[4:]}{'X' if c == 10 else c}"


def _arxiv(r: random.Random) -> str:
    if r.random() < 0.25:
        cat = r.choice(["hep-th", "astro-ph", "cond-mat", "q-bio", "physics"])
        return f"{cat}/{r.randint(95, 99)}{r.randint(1, 12):02d}{_digits(r, 3)}"
    v = r.choice(["", "v1", "v2", "v3"])
    return f"{r.randint(15, 25)}{r.randint(1, 12):02d}.{_digits(r, 5)}{v}"


def _doi(r: random.Random) -> str:
    return r.choice(
        [
            f"10.{r.randint(1000, 9999)}/j.{_w(r)}.{r.randint(2010, 2025)}.{_digits(r, 6)}",
            f"10.1145/{_digits(r, 7)}.{_digits(r, 7)}",
            f"10.48550/arXiv.{r.randint(18, 25)}{r.randint(1, 12):02d}.{_digits(r, 5)}",
            f"10.{r.randint(1000, 9999)}/s{_digits(r, 5)}-{r.randint(19, 25):03d}-{_digits(r, 5)}-{r.randint(0, 9)}",
        ]
    )


def _orcid(r: random.Random) -> str:
    d = "0000000" + str(r.randint(1, 3)) + _digits(r, 7)
    total = 0
    for ch in d:
        total = (total + int(ch)) * 2
    c = (12 - total % 11) % 11
    full = d + ("X" if c == 10 else str(c))
    return "-".join(full[i : i + 4] for i in range(0, 16, 4))


def _lei(r: random.Random) -> str:
    base = r.choice(["5493", "2138", "5299", "9845", "8156"]) + "00"
    base += _chars(r, string.ascii_uppercase + string.digits, 12)
    n = int("".join(str(int(c, 36)) for c in base + "00"))
    return f"{base}{98 - n % 97:02d}"


def _bic(r: random.Random) -> str:
    cc = r.choice(["DE", "NL", "PL", "JP", "ES", "PT", "SE", "IT", "CH"])
    loc = r.choice(string.ascii_uppercase + "23456789") + r.choice(string.ascii_uppercase)
    return f"{_upper(r, 4)}{cc}{loc}{r.choice(['', 'XXX', _upper(r, 1) + _digits(r, 2)])}"


def _container(r: random.Random) -> str:
    vals, v = {}, 10
    for ch in string.ascii_uppercase:
        if v % 11 == 0:
            v += 1
        vals[ch], v = v, v + 1
    owner, serial = _upper(r, 3) + r.choice("UUJZ"), _digits(r, 6)
    code = owner + serial
    total = sum((vals[c] if c.isalpha() else int(c)) * 2**i for i, c in enumerate(code))
    check = total % 11 % 10
    return r.choice([f"{code}{check}", f"{owner} {serial} {check}"])


def _station(r: random.Random) -> str:
    cc, num = r.choice([("DE", 80), ("CH", 85), ("FR", 87), ("NL", 84), ("PL", 51), ("AT", 81)])
    return f"{cc}:{num}{_digits(r, 5)}"


def _chem_lot(r: random.Random) -> str:
    yy = r.randint(19, 26)
    return r.choice(
        [
            f"{_upper(r, 2)}{yy}{r.choice('ABCDEFGHJKLM')}{_digits(r, 4)}",
            f"{_digits(r, 2)}{_upper(r, 1)}{_digits(r, 4)}-{_upper(r, 1)}{_digits(r, 2)}",
            f"LN-{2000 + yy}-{_digits(r, 5)}/{r.randint(1, 9)}",
        ]
    )


def _serial(r: random.Random) -> str:
    return r.choice(
        [
            f"SN/{r.randint(2018, 2026)}/{_digits(r, 5)}/{_upper(r, 1)}{r.randint(1, 9)}",
            f"{_digits(r, 3)}-{_digits(r, 2)}/{_upper(r, 1)}/{_digits(r, 4)}",
            f"{_upper(r, 2)}{_digits(r, 4)}/{_digits(r, 2)}-{_digits(r, 3)}",
        ]
    )


def _metar(r: random.Random) -> str:
    wind = f"{r.randint(1, 36) * 10:03d}{r.randint(3, 35):02d}"
    wind += f"G{r.randint(36, 55)}KT" if r.random() < 0.4 else "KT"
    vis = r.choice(["9999", "6000", "4500", "0800"])
    wx = r.choice(["", " -RA", " BR", " +TSRA", " -SN", " FG", " SHRA"])
    cloud = f"{r.choice(['FEW', 'SCT', 'BKN', 'OVC'])}{r.randint(3, 80):03d}"

    def t(x: int) -> str:
        return f"M{-x:02d}" if x < 0 else f"{x:02d}"

    temp = r.randint(-15, 32)
    dew = temp - r.randint(0, 9)
    return f"{wind} {vis}{wx} {cloud} {t(temp)}/{t(dew)} Q{r.randint(965, 1040)}"


# --- time, quantities, places, people, chat ---------------------------------------------


def _rfc3339(r: random.Random) -> str:
    off = r.choice(["+05:30", "-03:00", "+09:00", "Z", "+13:45", "-07:00", "+01:00", "+05:45"])
    frac = f".{_digits(r, 3)}" if r.random() < 0.5 else ""
    return (
        f"{r.randint(2024, 2026)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T"
        f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}{frac}{off}"
    )


def _isoweek(r: random.Random) -> str:
    return f"{r.randint(2024, 2027)}-W{r.randint(1, 52):02d}-{r.randint(1, 7)}"


def _duration(r: random.Random) -> str:
    h, m, s, d = r.randint(1, 23), r.randint(1, 59), r.randint(1, 59), r.randint(1, 9)
    return r.choice([f"PT{h}H{m}M", f"PT{m}M{s}S", f"P{d}DT{h}H", f"PT{h}H{m}M{s}S"])


def _money(r: random.Random) -> str:
    n, c = r.randint(1200, 9_800_000), r.randint(0, 99)
    return r.choice(
        [
            f"{_group(n, '.')},{c:02d} €",
            f"{_group(n, chr(0x202F))},{c:02d} €",
            "CHF " + _group(n, "'") + f".{c:02d}",
            f"₹{_indian(n)}.{c:02d}",
            f"${n:,}.{c:02d}",
            f"¥{n * 10:,}",
            f"R$ {_group(n, '.')},{c:02d}",
            f"{_group(n, ' ')},{c:02d} zł",
            f"£{n:,}.{c:02d}",
        ]
    )


def _signed(x: float, places: int) -> str:
    """``x`` with a typographic minus sign."""
    s = f"{abs(x):.{places}f}"
    return f"\u2212{s}" if x < 0 and s.strip("0.") else s


def _temperature(r: random.Random) -> str:
    x = r.uniform(-80, 140)
    return r.choice(
        [
            f"{_signed(x, 1)} °C",
            f"{_signed(x * 9 / 5 + 32, 0)} °F",
            f"{x + 273.15:.2f} K",
        ]
    )


def _dms(r: random.Random) -> str:
    def part(limit: int, sides: str) -> str:
        return (
            f"{r.randint(0, limit)}°{r.randint(0, 59):02d}′{r.uniform(0, 59.9):04.1f}″"
            f"{r.choice(sides)}"
        )

    return f"{part(80, 'NS')} {part(179, 'EW')}"


_VIETNAMESE = (
    "Nguyễn Trần Lê Phạm Hoàng Huỳnh Võ Đặng Bùi Đỗ".split(),
    "Thị Văn Đức Ngọc Minh Thanh".split(),
    "Hương Tuấn Phương Quỳnh Khải Thảo Dũng Lâm Vy Nhật".split(),
)
_GREEK = (  # (given, family) pairs of lists, one per grammatical gender
    (
        "Γιώργος Δημήτρης Νικόλαος Παναγιώτης".split(),
        "Παπαδόπουλος Καραγιάννης Μαυρίδης Οικονόμου Χατζηδάκης".split(),
    ),
    (
        "Ελένη Αικατερίνη Σοφία Βασιλική".split(),
        "Παπαδοπούλου Καραγιάννη Μαυρίδου Οικονόμου Χατζηδάκη".split(),
    ),
)
_CYRILLIC = (
    "Ярослава Олег Светлана Тимофей Анастасия Богдан Милена Всеволод".split(),
    "Шевченко Ткаченко Лысенко Бондаренко Мельник Коваль Кравець".split(),  # either gender
)


def _uni_name(r: random.Random) -> str:
    script = r.randint(0, 2)
    if script == 0:
        return " ".join(r.choice(p) for p in _VIETNAMESE)
    given, family = r.choice(_GREEK) if script == 1 else _CYRILLIC
    return f"{r.choice(given)} {r.choice(family)}"


def _postcode(r: random.Random) -> str:
    up = string.ascii_uppercase
    return r.choice(
        [
            f"{r.choice('EWNS')}{r.choice('CW1')}{r.randint(1, 9)}{r.choice('ABHNV')} "
            f"{r.randint(1, 9)}{r.choice('ABDEFGHJLNPQRSTUWXYZ')}{r.choice('ABDEFGHJLNPQRSTUWXYZ')}",
            f"{r.choice('KMHTVLR')}{r.randint(1, 9)}{r.choice(up)} {r.randint(0, 9)}{r.choice(up)}{r.randint(0, 9)}",
            f"{r.randint(1000, 9999)} {r.choice('ABCEHJKLMNPRTVWXZ')}{r.choice('ABCEHJKLMNPRTVWXZ')}",
            f"{r.randint(0, 99):02d}-{_digits(r, 3)}",
            f"〒{_digits(r, 3)}-{_digits(r, 4)}",
            f"{_digits(r, 5)}-{_digits(r, 3)}",
            f"{r.choice('DACTKW')}{r.randint(1, 24):02d} {r.choice(up)}{_digits(r, 1)}{r.choice(up)}{_digits(r, 1)}",
            f"{r.randint(100, 984)} {r.randint(10, 99)}",
            f"{r.randint(1000, 9999)}-{_digits(r, 3)}",
        ]
    )


def _hashtag(r: random.Random) -> str:
    return f"#{_cap(r)}{_cap(r)}{r.randint(20, 99)}"


def _slack(r: random.Random) -> str:
    return r.choice(
        [
            f"#{r.choice(['team', 'proj', 'ops', 'alerts'])}-{_w(r)}-{_w(r)}",
            f"#inc-{r.randint(2024, 2026)}{r.randint(1, 12):02d}{r.randint(1, 28):02d}-{_w(r)}",
        ]
    )


def _jira(r: random.Random) -> str:
    key = _w(r).upper() if r.random() < 0.5 else _upper(r, r.randint(2, 5))
    return f"{key}-{r.randint(100, 29999)}"


VALUES = {
    "k8s_ns": _k8s_ns,
    "k8s_obj": _k8s_obj,
    "k8s_selector": _k8s_selector,
    "cron": _cron,
    "s3": _s3,
    "gcs": _gcs,
    "digest": _digest,
    "image_tag": _image_tag,
    "semver_range": _semver_range,
    "refspec": _refspec,
    "jwt": _jwt,
    "uuid7": _uuid7,
    "ulid": _ulid,
    "mac": _mac,
    "ipv6_zone": _ipv6_zone,
    "cidr": _cidr,
    "hostport": _hostport,
    "arn": _arn,
    "azure_id": _azure_id,
    "tf_addr": _tf_addr,
    "traceparent": _traceparent,
    "ssh_fp": _ssh_fp,
    "env_var": _env_var,
    "flag_key": _flag_key,
    "promql": _promql,
    "regex": _regex,
    "sql_ident": _sql_ident,
    "spaced_path": _spaced_path,
    "unc": _unc,
    "semver_build": _semver_build,
    "isbn": _isbn13,
    "issn": _issn,
    "arxiv": _arxiv,
    "doi": _doi,
    "orcid": _orcid,
    "lei": _lei,
    "bic": _bic,
    "container": _container,
    "station": _station,
    "chem_lot": _chem_lot,
    "serial": _serial,
    "metar": _metar,
    "rfc3339": _rfc3339,
    "isoweek": _isoweek,
    "duration": _duration,
    "money": _money,
    "temperature": _temperature,
    "dms": _dms,
    "uni_name": _uni_name,
    "postcode": _postcode,
    "hashtag": _hashtag,
    "slack": _slack,
    "jira": _jira,
}

TABLE = r"""
constraint k8s_ns | Deploy only into the {v} namespace; everything else on that cluster belongs to other teams.
constraint cidr | Heads-up: egress from the test pods is only allowed towards {v}, anything outside that block gets dropped, so don't design around other addresses.
constraint semver_range | The lockfile must keep the client library within {v}. Don't widen that range even if the resolver suggests it.
constraint cron | Scheduled jobs here may only fire on `{v}` (UTC) — that's the window ops signed off on.
constraint s3 | $ sed -n '12,16p' docs/CONTRIBUTING-infra.md\n## 4.2 Storage\nAll intermediate artefacts are written to {v} and nowhere else.\nScratch buckets are wiped weekly; do not rely on them.
constraint digest | $ head -n 6 deploy/values.prod.yaml\n# NOTE(platform): the image stays pinned by digest, see the last incident review\n# allowed: {v}\nimage:\n  pullPolicy: IfNotPresent\nreplicas: 3
constraint duration | Hard limit from the SRE side: no single migration step may run longer than {v}. If yours would, split it.
constraint semver_build | Pre-merge checklist (copied from the wiki):\n- [ ] tests green\n- [ ] changelog entry\n- [ ] artefacts built from {v}, nothing hand-edited\n- [ ] reviewer from another squad
constraint gcs | We got burned last time when somebody ran the backfill against a different prefix, so this time the backfill reads from {v} only. Please keep it that way.
constraint money | Budget ceiling for this piece of work: {v} in total, cloud spend for the test runs included.
constraint temperature | About the simulation inputs — the sensor readings are only trustworthy up to {v}; anything above must be treated as missing, not clipped.
constraint env_var | Ojo: la configuración solo se puede leer de la variable de entorno {v}; no añadas ficheros .env nuevos.
constraint flag_key | Afspraak met het productteam: alle nieuwe code komt achter de featureflag {v}, ook de kleine fixes.
constraint k8s_selector | 注意：対象は `{v}` のラベルが付いたPodだけです。それ以外には触らないでください。
constraint regex | Every ticket reference in commit messages has to match {v}; the release tooling rejects anything else.
constraint postcode | From the contract, verbatim: "Supplier shall deliver exclusively to the registered depot, postal code {v}." So address validation accepts that depot and rejects the others.
constraint sql_ident | All reads go through {v}. The raw tables behind it are off-limits for this task because of row-level security.
safety k8s_ns | Whatever you do, do not run anything against {v}. That's production and there is no rollback for it.
safety jwt | I pasted the wrong thing earlier: the string {v} is a live credential. Don't echo it, log it, or put it in any file.
safety arn | Never assume the role {v}. It has account-wide delete rights and every use pages the security team.
safety s3 | Do NOT delete or overwrite {v}; it is the only copy of the audit export.
safety refspec | $ sed -n '20,24p' SECURITY.md\n### Destructive operations\nPushing with the refspec {v} is forbidden without two approvals from release managers.\nAccidental pushes must be reported within one hour.
safety tf_addr | $ grep -n -A3 'DANGER' infra/storage.tf\n41:  # DANGER: prevent_destroy on purpose. If a plan wants to replace\n42-  # {v}, STOP and ask in the infra channel first.\n43-  lifecycle {{\n44-    prevent_destroy = true
safety unc | Keep your hands off {v} — that share is mounted read-write on the lab instruments and a stray delete would wipe months of measurements.
safety ssh_fp | If any host presents the key fingerprint {v}, abort the connection; that is the old, compromised bastion key.
safety azure_id | Do not scale down or restart {v} during business hours. It serves the hospital integration.
safety mac | Don't reflash or power-cycle the controller with MAC {v}. It's the only one on that floor and we have no spare.
safety sql_ident | Last quarter someone truncated {v} thinking it was staging and we spent two days restoring. Read-only access to that table, always.
safety hostport | Uwaga: nigdy nie uruchamiaj migracji na bazie pod adresem {v} — to produkcja klienta.
safety gcs | Attenzione: il bucket {v} contiene dati personali; non copiarlo in locale e non renderlo pubblico.
safety ulid | Record {v} is under legal hold. Do not modify or purge it, even if the retention job flags it.
safety cidr | Never open inbound rules to {v}: that range is the partner VPN, and security treats any change there as an incident.
safety k8s_selector | Before any rollout:\n1. announce it in the channel\n2. leave the pods matching {v} alone, no restarts, no exec\n3. keep the dashboards open
preference rfc3339 | Small thing: write timestamps the way our logs do, e.g. {v} — full offset, no conversion to UTC.
preference money | When you report costs, format them like {v}; finance pastes them straight into their sheet.
preference slack | If you need to tell people something, post it in {v} rather than DMing anyone.
preference temperature | I'd rather see temperatures written as {v}, with the space and the unit symbol, in every chart label.
preference duration | Could you express timeouts in ISO 8601, like {v}, instead of raw seconds? Much easier to read in the configs.
preference hashtag | For the release announcement, tag the posts with {v}; marketing tracks that one.
preference dms | For the map labels I prefer degrees-minutes-seconds, like {v}, over decimal degrees.
preference image_tag | I'd like the examples in the docs to use {v} as the image, it's what most users actually pull.
preference uni_name | $ cat .team-defaults\n# team conventions, not enforced by CI\nreviewer_default = {v}\nquote_style = double\nwrap = 100
preference jira | Reference {v} in the PR title please; that's the umbrella ticket I like everything hanging off.
preference postcode | Kleine voorkeur: gebruik in de testdata het adres met postcode {v}, dat is ons kantoor en dan herkennen reviewers het meteen.
preference orcid | 細かい点ですが、論文の引用では著者のORCIDを {v} の形式（ハイフン付き）で書いてください。
preference sql_ident | Style-wise, always fully qualify as {v} in the queries you write, quotes included, even where the search path would resolve it.
preference semver_build | Call the build {v} in anything you write up — I like the build metadata visible.
preference isoweek | Date things by ISO week where you can, e.g. {v}; that's how the planning board is organised.
preference doi | When citing the method, link {v} rather than the preprint. I prefer the published version.
preference env_var | Around here we tend to name the toggle {v} in examples. Not a rule, but it keeps the docs consistent.
tool_fact k8s_obj | $ kubectl get deploy,sts,cronjob -n apps -o name | grep -v test\n{v}\n(1 resource matched)
tool_fact digest | $ grep -n 'image:' deploy/api.yaml\n17:        image: {v}
tool_fact uuid7 | $ psql -Atc "select id from runs order by created_at desc limit 1"\n{v}
tool_fact ipv6_zone | $ ping -6 -c1 gateway.local\nPING gateway.local({v}) 56 data bytes\n64 bytes from {v}: icmp_seq=1 ttl=64 time=0.412 ms
tool_fact cidr | $ aws ec2 describe-subnets --filters Name=tag:Name,Values=private-b --query 'Subnets[0].CidrBlock' --output text\n{v}
tool_fact arn | $ aws sts get-caller-identity\n{{\n    "UserId": "AROAXXXXXXXXXXXXXXXXX:ci",\n    "Arn": "{v}"\n}}
tool_fact isbn | $ python scripts/lookup.py --title "Field Methods in Hydrology"\nmatches: 1\nisbn13: {v}\nbinding: hardcover
tool_fact container | $ curl -s https://tracking.internal/api/v1/shipments/latest | jq -r .equipment\n{v}
tool_fact metar | $ curl -s "https://wx.internal/obs/latest?station=lab-roof"\nOBS lab-roof {v}=
tool_fact lei | $ grep -n counterparty data/fixtures/trade_0412.json\n8:    "counterparty_lei": "{v}",
tool_fact orcid | $ yq '.authors[0]' CITATION.cff\nfamily-names: Kowalczyk\ngiven-names: Zofia\norcid: https://orcid.org/{v}
tool_fact rfc3339 | $ jq -r .generated_at build/manifest.json\n{v}
tool_fact station | $ python -m timetable.lookup "Hauptbahnhof Nord"\nname       Hauptbahnhof Nord\nid         {v}\nplatforms  14
tool_fact chem_lot | $ grep -i buffer inventory/reagents.csv\nPhosphate buffer pH 7.4,{v},2026-02-28,shelf B
tool_fact semver_build | $ ./bin/agentd --version\nagentd {v} (linux/amd64)
tool_fact traceparent | $ curl -sI https://api.staging.internal/health | grep -i traceparent\ntraceparent: {v}
tool_fact issn | $ python -m biblio.resolve --journal "Journal of Applied Hydrometry"\ntitle: Journal of Applied Hydrometry\nissn (online): {v}\npublisher: (unknown)
tool_error k8s_obj | $ kubectl rollout status -n apps --timeout=120s -f deploy/\nWaiting for rollout to finish: 1 of 3 updated replicas are available...\nerror: {v} exceeded its progress deadline
tool_error s3 | $ aws s3 cp ./out/summary.parquet "$EXPORT_TARGET"\nupload failed: ./out/summary.parquet to {v} An error occurred (AccessDenied) when calling the PutObject operation: Access Denied
tool_error image_tag | $ docker pull --platform linux/arm64 "$BASE_IMAGE"\nError response from daemon: manifest for {v} not found: manifest unknown
tool_error ulid | $ curl -s -X POST localhost:8080/v2/jobs/retry -d @payload.json\n{{"error": "job_not_found", "job_id": "{v}", "status": 404}}
tool_error sql_ident | $ psql -v ON_ERROR_STOP=1 -f migrations/0042_backfill.sql\npsql:migrations/0042_backfill.sql:17: ERROR:  relation {v} does not exist\nLINE 3:   FROM ...
tool_error regex | $ python scripts/validate_refs.py data/refs.txt\nline 88: 'misc cleanup' does not match {v}\n1 invalid reference, aborting
tool_error cron | $ python -m scheduler.check jobs/nightly.yaml\njobs/nightly.yaml:14: schedule '{v}' overlaps the backup window\n1 error
tool_error hostport | $ ./scripts/smoke.sh\n[smoke] connecting ...\nconnect to {v} failed: Connection refused (os error 111)\n[smoke] FAILED after 3 retries
tool_error uuid7 | $ pytest tests/integration -x -q\n...F\nFAILED tests/integration/test_runs.py::test_resume - KeyError: '{v}'\n1 failed, 3 passed in 4.21s
tool_error tf_addr | $ terraform plan -out=tfplan\n│ Error: Instance cannot be destroyed\n│\n│ Resource {v} has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed.
tool_error unc | $ python tools/sync_share.py --target prod\nPermissionError: [WinError 5] Access is denied: '{v}'
tool_error env_var | $ make run-local\npython -m app.main\nRuntimeError: required environment variable {v} is not set\nmake: *** [Makefile:23: run-local] Error 1
tool_error duration | $ ./gradlew :worker:test\n> Task :worker:test FAILED\nJobTimeoutTest > respectsBudget FAILED\n    java.util.concurrent.TimeoutException: step exceeded its budget of {v}
tool_error spaced_path | $ python tools/import_sheet.py --config config/local.toml\nFileNotFoundError: [Errno 2] No such file or directory: '{v}'
tool_error azure_id | $ az deployment group create -g rg-core -f main.bicep\nERROR: (ResourceNotFound) The Resource '{v}' was not found.
tool_error jira | $ git push origin HEAD\nremote: error: commit 3f2a91c references {v}, which is closed\nremote: hook declined\n ! [remote rejected] HEAD -> fix/empty-input (pre-receive hook declined)
tool_error promql | $ promtool check rules alerts/latency.yml\nChecking alerts/latency.yml\n  FAILED:\ngroup "latency", rule 2: expression {v} references an unknown metric
tool_error hostport | $ ./deploy.sh staging\n[deploy] Verbindung wird aufgebaut ...\nFehler: Zeitüberschreitung beim Verbinden mit {v} (nach 30 s)
ai_path spaced_path | \n\nThe input the report builder reads is "{v}" (note the spaces, it has to stay quoted in every command).
ai_path unc | \n\nI'll treat {v} as the canonical location of the raw exports from here on.
ai_path s3 | \n\nSide note for later: the intermediate results are being written to {v}.
ai_path gcs | \n\n(Checkpoint location: {v})
ai_path k8s_obj | \n\nThe component that actually serves this code path is {v}, so any config change would have to go there.
ai_path azure_id | \n\nFor reference, the storage behind this lives at {v}.
ai_path arn | \n\nThe function doing the conversion is {v}; its logs are the ones to check.
ai_path digest | \n\nThe exact image under test is {v}.
ai_path refspec | \n\nI'll fetch with the refspec {v} so the branch is tracked locally.
ai_path doi | \n\nThe algorithm this module implements is described in doi:{v}; the tolerance constants come from there.
ai_path arxiv | \n\nThe reference implementation follows arXiv:{v}, section 3.
ai_path tf_addr | \n\nThe resource to inspect in the state file is {v}.
ai_path unc | \n\nNota: los resultados intermedios se guardan en {v}.
ai_path sql_ident | \n\nThe view the dashboard reads from is {v}; the raw table is never queried directly.
arg_identifier k8s_ns | namespace || NAME                     READY   STATUS    RESTARTS   AGE\napi-7d9f8b6c4-x2klp      1/1     Running   0          3d2h\nworker-5f7c9d-q8mzn      1/1     Running   2          3d2h
arg_identifier uuid7 | run_id || status: completed\nsteps: 14\nartifacts: 3
arg_identifier ulid | event_id || {"delivered": true, "attempts": 1}
arg_identifier s3 | object_uri || ContentLength: 48211\nContentType: application/octet-stream\nLastModified: Tue, 11 Mar 2025 08:14:02 GMT
arg_identifier digest | image_ref || Scanned 212 packages: 0 critical, 2 high, 11 medium.
arg_identifier arn | role_arn || AssumeRole succeeded; session expires in 3600 s.
arg_identifier mac | mac_address || vendor: unknown (locally administered)\nlast seen: switch-3 port 17\nvlan: 40
arg_identifier orcid | orcid || works: 27\nemployments: 2\nlast modified: 2024-11-02
arg_identifier lei | lei || registration status: ISSUED\nentity status: ACTIVE\nnext renewal: 2025-09-30
arg_identifier container | container_no || last event: DISCHARGED\nlocation: terminal gate 4\nholds: none
arg_identifier traceparent | traceparent || 41 spans, 3 with errors, root duration 2.8 s
arg_identifier jira | issue_key || status: In Review\nassignee: unassigned\nlabels: backend, regression
arg_identifier bic | bic || reachable: SCT, SCT Inst\nstatus: active
arg_identifier flag_key | flag_key || enabled for 12% of traffic\nlast changed: 2 days ago\nowner: growth
arg_identifier azure_id | resource_id || provisioningState: Succeeded\nlocation: westeurope\nsku: Standard_LRS
arg_identifier isbn | isbn || title: (untitled proof)\nformat: paperback\npages: 412
decision semver_range | \n\nDecision: I'm pinning the dependency to {v}; the next minor changed the serializer defaults.
decision image_tag | \n\nI'll go with {v} as the base image, it's the smallest one that still ships glibc.
decision cron | \n\nI've settled on `{v}` for the cleanup schedule so it never overlaps the backups.
decision duration | \n\nGoing forward the retry budget will be {v}; beyond that the caller has already given up.
decision cidr | \n\nI'm choosing {v} for the new subnet. It doesn't overlap anything in the peering table.
decision flag_key | \n\nPlan: everything new goes behind {v}, default off.
decision env_var | \n\nI'll read the setting from {v} rather than adding yet another config file.
decision money | \n\nI'll use {v} as the threshold in the test fixture, since it exercises both the grouping and the decimals.
decision k8s_ns | \n\nSo the approach is: reproduce in {v}, which is throwaway, and only then touch the shared cluster.
decision regex | \n\nI'm going with the pattern {v} for validation; it's strict but matches every example in the fixtures.
decision semver_build | \n\nThe release will be cut as {v}.
decision slack | \n\nOnce the fix is verified I'll post the summary to {v} rather than the general channel.
decision rfc3339 | \n\nBesluit: de overschakeling gebeurt op {v}, buiten de piekuren.
decision postcode | \n\n方針：テスト用の住所は郵便番号 {v} に統一します。
decision dms | \n\nI'll use {v} as the reference point for the distance tests.
decision jira | \n\nI'll track the follow-up under {v} instead of opening a new ticket.
goal_change k8s_obj | Change of plan: forget the parser for now. The priority is getting {v} healthy again, it has been crashlooping since the morning.
goal_change doi | New direction. Instead of the edge case, reproduce the figures from {v} with this library; that's what the grant report needs.
goal_change container | The customer escalated, so drop the refactor and find out why container {v} shows two conflicting locations.
goal_change cidr | Scrap the previous task. What I need now is a script that lists every host in {v} still answering on port 22.
goal_change station | Different job now: the timetable import breaks for station {v}. Look into that first, the rest can wait.
goal_change jira | Switching priorities — please pick up {v} instead; the current issue moves to next sprint.
goal_change arxiv | Let's pivot: implement the estimator from arXiv:{v} as a new function and leave the old code as it is.
goal_change metar | New objective: make the parser handle this observation end to end: `{v}`. Everything else is secondary.
goal_change chem_lot | Stop there. Quality just flagged lot {v}; the task is now to find every sample that used it.
goal_change serial | Forget the original bug. Unit {v} came back from the field with corrupted logs and that's what we're on now.
goal_change uni_name | Cambio de planes: ahora lo importante es que el nombre {v} se ordene y se muestre bien en el informe. Lo demás puede esperar.
goal_change postcode | Zmiana celu: zamiast poprawiać walidację, przygotuj raport dla wszystkich zamówień z kodem pocztowym {v}.
goal_change gcs | $ cat TODO.next\nPRIORITY CHANGED (from the lead, today)\n  was: finish the current fix\n  now: migrate the nightly export to {v}
goal_change hashtag | Okay, new goal. Marketing wants a small script that pulls every post tagged {v} and counts them per day. Park the current work.
goal_change lei | Priority shift: compliance needs every trade with counterparty {v} exported before anything else.
goal_change orcid | 方針変更です。今のバグ修正は後回しにして、ORCID {v} の著者の論文リストを取得するスクリプトを優先してください。
correction k8s_ns | deploy target ns is {v} || nvm, {v}
correction rfc3339 | Memo to the implementation team: the data freeze takes effect at {v}. || Memorandum, revision 2. The data freeze previously communicated has been rescheduled; it now takes effect at {v}. Please disregard the earlier notice.
correction s3 | Write the export to {v}. || Sorry, my fault, I gave you the bucket path from the old account. It should be {v}.
correction image_tag | The service runs {v} in staging. || $ kubectl get deploy api -n staging -o jsonpath='{.spec.template.spec.containers[0].image}'\n{v}
correction cidr | The VPC for the test environment is {v}. || For the test environment's VPC, use {v}.
correction duration | Set the lock timeout to {v}. || Then run the soak test with the new lock timeout ({v}, not {old}) and send me the p99.
correction env_var | The toggle is read from {v}. || Updated notes:\n- tests: unchanged\n- toggle variable: {v}\n- docs: pending
correction hostport | Staging DB is at {v}. || | setting | value |\n|---|---|\n| staging db | {v} |\n| replicas | 2 |
correction jira | Link the work to {v}. || That ticket turned out to be a duplicate. The one to link is {v}.
correction uuid7 | The run we care about has id {v}. || Correction on the experiment identifier: {v}.
correction k8s_obj | The workload that's leaking memory is {v}. || Looked again; it's actually {v} that leaks, not the one I named.
correction postcode | La dirección de entrega tiene el código postal {v}. || Perdona, me equivoqué: el código postal correcto es {v}.
correction money | Het budget voor de pilot is {v}. || Kleine correctie: het budget is inmiddels verhoogd naar {v}.
correction slack | 連絡は {v} チャンネルにお願いします。 || 訂正です。チャンネルは {v} に変わりました。
correction semver_range | Wersja biblioteki ma być w zakresie {v}. || Poprawka: zakres wersji to jednak {v}.
correction digest | $ grep -n 'image:' deploy/worker.yaml\n21:        image: {v} || $ git pull -q && grep -n 'image:' deploy/worker.yaml\n21:        image: {v}
correction cron | $ crontab -l | grep backup\n{v} /usr/local/bin/backup.sh || That crontab is outdated; since the migration the backup runs on `{v}`.
correction arn | Use the deploy role {v}. || $ aws iam list-roles --query "Roles[?contains(RoleName,'deploy')].Arn" --output text\n{v}
correction temperature | Keep the freezer set point at {v}. || make that {v}
correction ulid | The order to replay is {v}. || order id: {old} → {v}
correction flag_key | The rollout is gated by {v}. || $ git diff HEAD~1 -- config/flags.yaml\n@@ -3 +3 @@\n-gate: {old}\n+gate: {v}
correction regex | Validate the ids against {v}. || $ sed -n '3p' validators/ids.cfg\npattern = {v}
correction bic | The payout bank's BIC is {v}. || Did I say {old}? That's the old bank. Payouts go to {v}.
correction uni_name | The customer contact is {v}. || Forwarded from account management: "Please note that our contact person has changed; from now on, correspondence goes to {v}."
correction isbn | The edition to cite is ISBN {v}. || The second printing carries a different number, {v}, and that one is in the bibliography.
correction container | Container on the manifest: {v}. || > Container on the manifest: {old}\nno, that was the empty return; the loaded box is {v}
correction station | The train terminates at station {v}. || $ curl -s https://timetable.internal/api/trips/latest\n{{"trip": "IC 2215", "terminus": "{v}", "changed": true}}
correction dms | O ponto de coleta fica em {v}. || Corrigindo: as coordenadas certas do ponto de coleta são {v}.
correction semver_build | We're testing against build {v}. || $ tail -n 2 logs/ci.log\n[ci] resolved artifact version\n[ci] version={v}
correction lei | The counterparty LEI on file is {v}. || Two updates from compliance: (1) the KYC refresh is done; (2) the LEI on file is now {v}.
correction gcs | Staging data lives in {v}. || Ignore the bucket I mentioned this morning. Staging data: {v}.
correction mac | Allow-list the controller with MAC {v}. || The controller was swapped yesterday, so its address is {v} now.
correction ipv6_zone | The tests should ping {v}. || $ ./netcheck --gateway\nwarning: configured gateway unreachable\nusing gateway {v}
correction serial | The faulty unit's serial is {v}. || Sticker on the back reads {v}; what I typed earlier came off the packing slip.
correction orcid | Author ORCID: {v} || the ORCID above was mistyped: {v}
"""

plant = generator(VALUES, TABLE, prefix="heldout-m", salt=9413)
