# ruff: noqa: E501
"""The twelfth held-out canary set, written without reading the library's recognizers or
any other generator's templates.

Its author read only ``bench/_plant.py`` (the planting machinery and the table format),
the module docstring, ``KINDS`` and ``Canary`` of ``bench/canaries.py``,
``bench/_generators.py``, ``tests/test_generators.py`` and ``tests/corpus.py``, the import
lines of ``bench/fidelity_bench.py``, the ruff settings in ``pyproject.toml``, the first
three records of two corpus trajectories (a SWE-bench run and a tau-bench airline run) and
the opening of ``heldout_k.py``'s docstring (for its style, and to stay away from its
domains). Nothing under ``langgraph_compact/``, no other ``heldout*.py`` and no other test.

Its value shapes come from aviation (ICAO flight numbers, tail registrations, NOTAM ids,
METAR wind groups, flight levels), pharmacy and clinical coding (NDCs in three layouts,
ATC codes, ICD-10 codes, doses such as ``12.5 µg/h`` or ``1 g i.v. q8h``), maritime (IMO
numbers with check digits, MMSIs with real MIDs, UN/LOCODEs, what3words meeting points),
finance (IBANs of twelve countries with valid check digits, spaced and unspaced, ISINs
with Luhn digits, BICs, exchange tickers, amounts in EUR, GBP, BRL, SEK, PLN, TRY, AUD and
NOK with their local separators), law (ECLIs, neutral and German citations, statutes with
``§``), astronomy (sexagesimal RA/Dec, 2MASS designations), music (ISRCs, catalogue
numbers such as ``Hob. XVI:52``, keys with ``♯``/``♭``, tempi with ``♩``), motorsport lap
times, genomics (rsIDs, HGVS with ``>``, ``+`` and ``_``, loci with thousands separators,
donor ids), retail (GTIN-13s with check digits, SKUs with slashes, order numbers),
geography (place names such as ``Ísafjörður`` or ``São João del-Rei``, coordinates in
decimal and DMS, geohashes), education (course codes, ISBN-13s), chemistry (CAS numbers
with check digits, SMILES with stereo marks and slashes, InChIKeys), automotive (VINs with
check digits), rail (train numbers), travel (record locators), museums (accession
numbers), time zones, locales, typefaces and OKLCH colours; paths are Unix, Windows,
``s3://`` and ``gs://``, with spaces, en dashes and non-ASCII folder names.

Phrasings vary register (terse, chatty, formal, typo-laden, shouting), length, language
(German, French, Spanish, Japanese) and where the value sits: first word, mid-sentence,
last word, in parentheses, quotes, bullet lists, markdown tables, JSON, YAML, TOML, XML,
CSV, SQL results, log lines, tracebacks. Constraints and preferences are stated as caps,
conditions, questions, asides deep in a paragraph, rules files read by a tool, or settings
in a config. Corrections come in over twenty voices: errata, a relayed phone call,
self-blame, a ``git diff``, an ``UPDATE`` in psql, a revised declaration, a second look at
a trace, a German and a French rectification, a re-issued booking in JSON, a quoted
question with its answer, a Spanish apology, an audit log line, "scrap what I said", a
supplier change with no mention of the old value, an epoch mix-up, an analysis that moved
the result, a resolved ticket, a struck-through total, "wait, nope", a replacement that
leads with the new value, a compliance bounce, a YAML comment, a typo fix, an email from
a professor, a coach's bump, a dispatch record, a quoted reply, a before/now table, a
cancelled port call, a Japanese apology, a change from next Monday and a changelog arrow.
"""

from __future__ import annotations

import random
import string

from _plant import generator

__all__ = ["plant"]

_UP = string.ascii_uppercase
_ALNUM = string.digits + _UP


def _digits(r: random.Random, n: int) -> str:
    return "".join(r.choice(string.digits) for _ in range(n))


def _letters(r: random.Random, n: int, alphabet: str = _UP) -> str:
    return "".join(r.choice(alphabet) for _ in range(n))


def _luhn(payload: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(payload)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def _ean_check(payload: str) -> str:
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(payload))
    return str((10 - total % 10) % 10)


def _de(n: int, cents: int, group: str = ".") -> str:
    return f"{n:,}".replace(",", group) + f",{cents:02}"


# --- aviation ---------------------------------------------------------------------------


def _flight(r: random.Random) -> str:
    airline = r.choice(["LH", "AF", "KL", "SK", "AY", "TP", "IB", "OS", "EI", "FI", "TK",
                        "QR", "NZ", "QF", "JL", "NH", "ET", "AT", "LO", "OU", "A3", "WF"])  # fmt: skip
    return f"{airline}{r.randint(100, 9899)}"


def _tail(r: random.Random) -> str:
    kind = r.randrange(4)
    if kind == 0:
        return f"N{r.randint(100, 999)}{_letters(r, 2)}"
    if kind == 1:
        return f"{r.choice(['EI', 'VH', 'TF', 'OY', 'SE', 'LN', 'OH'])}-{_letters(r, 3)}"
    return f"{r.choice(['D', 'G', 'F', 'C', 'I'])}-{_letters(r, 4)}"


def _notam(r: random.Random) -> str:
    return f"{r.choice('ABCM')}{_digits(r, 4)}/{r.randint(22, 25)}"


def _metar_wind(r: random.Random) -> str:
    d, s = r.randrange(10, 360, 10), r.randint(8, 28)
    return f"{d:03}{s:02}G{s + r.randint(8, 20)}KT"


def _flevel(r: random.Random) -> str:
    return f"FL{r.randrange(250, 430, 10)}"


# --- pharmacy and clinical ---------------------------------------------------------------


def _ndc(r: random.Random) -> str:
    a, b, c = r.choice([(4, 4, 2), (5, 3, 2), (5, 4, 1)])
    return f"{_digits(r, a)}-{_digits(r, b)}-{_digits(r, c)}"


def _atc(r: random.Random) -> str:
    return f"{r.choice('ABCDGHJLMNPRSV')}{r.randint(1, 16):02}{_letters(r, 2)}{r.randint(1, 30):02}"


def _icd(r: random.Random) -> str:
    tail = str(r.randint(0, 9)) if r.random() < 0.5 else f"{r.randint(0, 9)}{r.randint(0, 9)}"
    return f"{r.choice('ABCDEFGIJKMNRSTZ')}{r.randint(0, 99):02}.{tail}"


def _dose(r: random.Random) -> str:
    kind = r.randrange(6)
    if kind == 0:
        return f"{r.choice(['0.25', '0.5', '0.75', '1.5', '2.5', '7.5', '15'])} mg/kg"
    if kind == 1:
        return f"{r.choice(['12.5', '25', '37.5', '50', '75'])} µg/h"
    if kind == 2:
        return f"{r.choice([20, 40, 80, 120, 250, 500])} mg q{r.choice([6, 8, 12, 24])}h"
    if kind == 3:
        return f"{r.choice([1, 2])} g i.v. q{r.choice([6, 8, 12])}h"
    if kind == 4:
        return f"{r.choice(['0.05', '0.1', '0.2', '0.3'])} IE/kg/h"
    return f"{r.choice([2, 5, 7.5, 10])} mL ({r.choice([125, 250, 400])} mg)"


# --- maritime ---------------------------------------------------------------------------


def _imo(r: random.Random) -> str:
    six = r.choice("789") + _digits(r, 5)
    check = sum(int(d) * (7 - i) for i, d in enumerate(six)) % 10
    return f"IMO {six}{check}"


def _mmsi(r: random.Random) -> str:
    mid = r.choice(["211", "244", "257", "265", "219", "232", "538", "636", "477", "563",
                    "230", "273", "351", "431"])  # fmt: skip
    return mid + _digits(r, 6)


def _locode(r: random.Random) -> str:
    cc = r.choice(["NO", "NL", "DE", "SE", "FI", "DK", "IS", "PT", "ES", "GR", "TR", "PL", "EE"])
    return f"{cc} {_letters(r, 3)}" if r.random() < 0.4 else cc + _letters(r, 3)


_W3W = ("filled count soap lantern gravel mostly tulips ribbon cabins shadow velvet "
        "oysters ladder pebble orbit ferry spoons quietly harbour crisp amber walnut "
        "tidal sketch wobble magnet plums dozen").split()  # fmt: skip


def _w3w(r: random.Random) -> str:
    return "///" + ".".join(r.sample(_W3W, 3))


# --- finance ----------------------------------------------------------------------------

_IBAN = {"DE": "n" * 18, "NL": "aaaa" + "n" * 10, "FR": "n" * 10 + "c" * 11 + "nn",
         "ES": "n" * 20, "IT": "a" + "n" * 10 + "c" * 12, "BE": "n" * 12, "AT": "n" * 16,
         "PL": "n" * 24, "NO": "n" * 11, "FI": "n" * 14, "PT": "n" * 21,
         "IE": "aaaa" + "n" * 14}  # fmt: skip


def _iban_e(r: random.Random) -> str:
    cc = r.choice(sorted(_IBAN))
    pick = {"n": string.digits, "a": _UP, "c": _ALNUM}
    bban = "".join(r.choice(pick[p]) for p in _IBAN[cc])
    digits = "".join(str(int(ch, 36)) for ch in bban + cc + "00")
    return f"{cc}{98 - int(digits) % 97:02}{bban}"


def _iban(r: random.Random) -> str:
    v = _iban_e(r)
    return " ".join(v[i : i + 4] for i in range(0, len(v), 4))


def _isin(r: random.Random) -> str:
    cc = r.choice(["US", "DE", "FR", "NL", "SE", "NO", "IE", "LU", "JP", "AU", "CA", "XS", "DK"])
    nsin = "000" + "".join(r.choice(_ALNUM) for _ in range(6)) if cc == "DE" else _digits(r, 9)
    body = cc + nsin
    return body + _luhn("".join(str(int(ch, 36)) for ch in body))


def _bic(r: random.Random) -> str:
    cc = r.choice(["DE", "NL", "FR", "SE", "PT", "PL", "AT", "IE", "BE", "FI", "NO"])
    branch = "" if r.random() < 0.5 else r.choice(["XXX", _digits(r, 3), _letters(r, 3)])
    return f"{_letters(r, 4)}{cc}{r.choice(_UP)}{r.choice(_ALNUM)}{branch}"


def _ticker(r: random.Random) -> str:
    kind = r.randrange(4)
    if kind == 0:
        return f"{r.randint(1000, 9999)}.T"
    if kind == 1:
        return f"{r.randint(1, 3999):04}.HK"
    if kind == 2:
        return f"{_letters(r, 3)}.{r.choice('AB')}"
    sfx = r.choice([".DE", ".PA", ".AS", ".ST", ".OL", ".HE", ".MC", ".MI", ".CO", ".AX", ".TO"])
    return f"{_letters(r, r.randint(3, 4))}{r.choice(['', '3', 'B'])}{sfx}"


def _amount(r: random.Random) -> str:
    n, c = r.randint(140, 98000), r.randint(0, 99)
    kind = r.randrange(8)
    if kind == 0:
        return f"€{_de(n, c)}"
    if kind == 1:
        return f"£{n:,}.{c:02}"
    if kind == 2:
        return f"R$ {_de(n, c)}"
    if kind == 3:
        return f"{_de(n, c, chr(0xA0))} kr"
    if kind == 4:
        return f"{_de(n, c, ' ')} zł"
    if kind == 5:
        return f"₺{_de(n, c)}"
    if kind == 6:
        return f"A${n:,}.{c:02}"
    return f"NOK {_de(n, 0, ' ')[:-3]},–"


# --- law --------------------------------------------------------------------------------


def _ecli(r: random.Random) -> str:
    y = r.randint(2009, 2024)
    kind = r.randrange(5)
    if kind == 0:
        return f"ECLI:NL:{r.choice(['HR', 'RBAMS', 'GHDHA', 'RVS', 'CRVB'])}:{y}:{r.randint(100, 9999)}"
    if kind == 1:
        return f"ECLI:EU:{r.choice('CT')}:{y}:{r.randint(10, 999)}"
    if kind == 2:
        return f"ECLI:FR:CCASS:{y}:{r.choice(['C1', 'C2', 'C3', 'SO', 'CR'])}{_digits(r, 5)}"
    if kind == 3:
        return f"ECLI:ES:TS:{y}:{r.randint(100, 4999)}"
    return f"ECLI:BE:{r.choice(['CASS', 'GHCC', 'RVSCE'])}:{y}:ARR.{y}{_digits(r, 4)}.{r.randint(1, 3)}"


def _case(r: random.Random) -> str:
    y = r.randint(2, 24)
    kind = r.randrange(5)
    if kind == 0:
        return f"[20{y:02}] {r.choice(['EWCA Civ', 'UKSC', 'EWHC', 'IESC', 'NZSC'])} {r.randint(12, 1999)}"
    if kind == 1:
        return f"C-{r.randint(100, 899)}/{y:02}"
    if kind == 2:
        return f"{r.randint(1, 2)} BvR {r.randint(100, 3999)}/{y:02}"
    if kind == 3:
        return (
            f"Az. {r.randint(2, 39)} {r.choice(['O', 'U', 'S', 'C'])} {r.randint(10, 999)}/{y:02}"
        )
    return f"No. {y:02}-{r.randint(100, 1999)}"


def _statute(r: random.Random) -> str:
    kind = r.randrange(5)
    if kind == 0:
        return f"§ {r.randint(300, 700)}{r.choice(['', 'a', 'b', 'g'])} Abs. {r.randint(1, 4)} BGB"
    if kind == 1:
        return f"{r.choice([15, 17, 18, 26, 42])} U.S.C. § {r.randint(101, 2999)}"
    if kind == 2:
        return f"Art. {r.randint(5, 49)}({r.randint(1, 4)})({r.choice('abcdef')}) GDPR"
    if kind == 3:
        return f"s. {r.randint(10, 180)}({r.randint(1, 5)}) Consumer Rights Act 2015"
    return f"art. L. {r.randint(211, 242)}-{r.randint(1, 30)} du code de la consommation"


# --- astronomy, music, sport ------------------------------------------------------------


def _radec(r: random.Random) -> str:
    sign = r.choice("+-")
    return (
        f"{r.randint(0, 23):02}:{r.randint(0, 59):02}:{r.uniform(0, 59.9):04.1f} "
        f"{sign}{r.randint(0, 79):02}:{r.randint(0, 59):02}:{r.randint(0, 59):02}"
    )


def _twomass(r: random.Random) -> str:
    ra = f"{r.randint(0, 23):02}{r.randint(0, 59):02}{r.randint(0, 59):02}{r.randint(0, 99):02}"
    de = f"{r.randint(0, 89):02}{r.randint(0, 59):02}{r.randint(0, 59):02}{r.randint(0, 9)}"
    return f"2MASS J{ra}{r.choice('+-')}{de}"


def _isrc(r: random.Random) -> str:
    cc = r.choice(["GB", "DE", "FR", "SE", "NO", "IS", "JP", "BR", "US", "AT", "PL"])
    reg, yy, n = "".join(r.choice(_ALNUM) for _ in range(3)), r.randint(0, 24), _digits(r, 5)
    return f"{cc}-{reg}-{yy:02}-{n}" if r.random() < 0.5 else f"{cc}{reg}{yy:02}{n}"


def _opus(r: random.Random) -> str:
    kind = r.randrange(7)
    if kind == 0:
        return f"BWV {r.randint(525, 1080)}"
    if kind == 1:
        return f"K. {r.randint(200, 626)}"
    if kind == 2:
        return f"Op. {r.randint(9, 130)} No. {r.randint(2, 12)}"
    if kind == 3:
        return f"D. {r.randint(100, 965)}"
    if kind == 4:
        return f"Hob. {r.choice(['XVI', 'III', 'I', 'VIIb'])}:{r.randint(2, 60)}"
    if kind == 5:
        return f"RV {r.randint(100, 580)}"
    return f"HWV {r.randint(40, 350)}"


def _key(r: random.Random) -> str:
    if r.random() < 0.3:
        return (
            f"{r.choice(['Fis', 'Cis', 'Es', 'As', 'Des', 'Gis', 'H'])}-{r.choice(['Dur', 'Moll'])}"
        )
    return f"{r.choice('CDEFGAB')}{r.choice(['♯', '♭'])} {r.choice(['major', 'minor', 'Dorian', 'Lydian'])}"


def _tempo(r: random.Random) -> str:
    n = r.randint(58, 188)
    return r.choice([f"♩ = {n}", f"♩. = {n}", f"{n} BPM", f"♪ = {n}"])


def _laptime(r: random.Random) -> str:
    return f"1:{r.randint(14, 48):02}.{r.randint(0, 999):03}"


# --- genomics ---------------------------------------------------------------------------


def _rsid(r: random.Random) -> str:
    return f"rs{r.randint(100000, 2147483647)}"


def _hgvs(r: random.Random) -> str:
    tx = f"NM_{r.choice(['00' + _digits(r, 4), '001' + _digits(r, 6)])}.{r.randint(1, 9)}"
    pos = r.randint(40, 4800)
    ref, alt = r.sample("ACGT", 2)
    kind = r.randrange(4)
    if kind == 0:
        return f"{tx}:c.{pos}{ref}>{alt}"
    if kind == 1:
        return f"{tx}:c.{pos}+{r.randint(1, 9)}{ref}>{alt}"
    if kind == 2:
        return f"{tx}:c.{pos}_{pos + r.randint(1, 4)}del"
    return f"{tx}:c.{pos}dup"


def _locus(r: random.Random) -> str:
    c = r.choice([*(str(i) for i in range(1, 23)), "X"])
    start = r.randint(1_000_000, 150_000_000)
    return f"chr{c}:{start:,}-{start + r.randint(900, 90000):,}"


def _sample(r: random.Random) -> str:
    return f"{r.choice(['HG', 'NA', 'GM'])}{_digits(r, 5)}"


# --- retail, geography, education -------------------------------------------------------


def _gtin(r: random.Random) -> str:
    prefix = r.choice(["40", "42", "50", "73", "59", "56", "86", "88", "45", "49", "76"])
    payload = prefix + _digits(r, 10)
    return payload + _ean_check(payload)


def _sku(r: random.Random) -> str:
    cat = r.choice(["TSH", "JKT", "SCK", "BTL", "MUG", "KNF", "TNT", "BAG"])
    col = r.choice(["BLK", "NVY", "OLV", "SND", "RST", "ECRU", "GRY"])
    size = r.choice(["XS", "M/L", "XL", "38-40", "0.5L", "OS", "43⅓"])
    return f"{cat}-{col}-{size}-{_digits(r, 4)}"


def _order(r: random.Random) -> str:
    return r.choice([f"#SO-{_digits(r, 6)}", f"WEB-{_digits(r, 4)}-{_letters(r, 2)}",
                     f"{_digits(r, 3)}-{_digits(r, 7)}-{_digits(r, 7)}"])  # fmt: skip


_PLACES = ("Ísafjörður", "Ærøskøbing", "Þorlákshöfn", "Łódź Kaliska", "São João del-Rei",
           "Kraków-Podgórze", "Göteborg-Landvetter", "Škofja Loka", "Hveragerði",
           "Český Krumlov", "Saint-Étienne-de-Tinée", "Tromsø", "Zürich-Oerlikon",
           "Şanlıurfa", "Ağrı", "Mörfelden-Walldorf", "Kuressaare", "Jyväskylä",
           "A Coruña", "Vila Real de Santo António", "Ηράκλειο", "Dún Laoghaire",
           "Llanfairpwll", "Bolzano/Bozen", "Cádiz", "Sønderborg", "Fuß am Berg")  # fmt: skip


def _place(r: random.Random) -> str:
    return r.choice(_PLACES)


def _coord(r: random.Random) -> str:
    lat, lon = r.uniform(-60, 70), r.uniform(-170, 170)
    if r.random() < 0.5:
        return f"{lat:.5f},{lon:.5f}"

    def dms(x: float, pos: str, neg: str) -> str:
        a = abs(x)
        d, m = int(a), int((a % 1) * 60)
        s = int((((a % 1) * 60) % 1) * 60)
        return f"{d}°{m:02}′{s:02}″{pos if x >= 0 else neg}"

    return f"{dms(lat, 'N', 'S')} {dms(lon, 'E', 'W')}"


def _course(r: random.Random) -> str:
    dept = r.choice(["MATH", "CHEM", "PHYS", "HIST", "LING", "BIOL", "ECON", "MUS", "PHIL", "GEOG"])
    return f"{dept} {r.randint(100, 4999)}{r.choice(['', 'L', '/L', 'H', 'W'])}"


def _isbn(r: random.Random) -> str:
    group = r.choice(["0", "1", "2", "3", "84", "88", "91", "83", "87", "951"])
    rest = 9 - len(group)
    pub_len = r.randint(2, rest - 2)
    pub, title = _digits(r, pub_len), _digits(r, rest - pub_len)
    payload = f"978{group}{pub}{title}"
    return f"978-{group}-{pub}-{title}-{_ean_check(payload)}"


# --- chemistry, automotive, rail, travel, museums ---------------------------------------

_SMILES = ("CC(=O)Oc1ccccc1C(=O)O", "Cn1cnc2c1c(=O)n(C)c(=O)n2C",
           "CC(C)Cc1ccc(cc1)[C@@H](C)C(=O)O", "CC(=O)Nc1ccc(O)cc1", "CN(C)C(=N)N=C(N)N",
           "CN1CCC[C@H]1c2cccnc2", "N[C@@H](Cc1ccc(O)c(O)c1)C(=O)O",
           "NCCc1c[nH]c2ccc(O)cc12", "CC(C)[C@@H]1CC[C@@H](C)C[C@H]1O",
           "COc1cc(C=O)ccc1O", "OC(=O)CC(O)(CC(=O)O)C(=O)O",
           "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc12", "CCN(CC)CC(=O)Nc1c(C)cccc1C",
           "COc1cc(CNC(=O)CCCC/C=C/C(C)C)ccc1O", "C/C=C/C(=O)OCC",
           "O=C(O)[C@@H]1CCCN1", "Clc1ccc(cc1)C(c1ccccc1)N1CCN(CC1)CCOCC(=O)O")  # fmt: skip


def _smiles(r: random.Random) -> str:
    return r.choice(_SMILES)


def _cas(r: random.Random) -> str:
    head = str(r.randint(50, 9_999_999))
    body = head + _digits(r, 2)
    check = sum(i * int(d) for i, d in enumerate(reversed(body), 1)) % 10
    return f"{head}-{body[-2:]}-{check}"


def _inchikey(r: random.Random) -> str:
    return f"{_letters(r, 14)}-{_letters(r, 8)}{r.choice(['SA', 'NA'])}-{r.choice('NMO')}"


_VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
_VIN_VAL = dict(zip("ABCDEFGHJKLMNPRSTUVWXYZ", [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 7, 9,
                                                2, 3, 4, 5, 6, 7, 8, 9], strict=True))  # fmt: skip
_VIN_W = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def _vin(r: random.Random) -> str:
    wmi = r.choice(["WVW", "WBA", "VF1", "ZFA", "YV1", "SAL", "JTD", "KMH", "TMB", "VSS", "WF0"])
    chars = list(wmi + _letters(r, 5, _VIN_CHARS) + "0" + r.choice("LMNPRS")
                 + r.choice(_UP.replace("I", "").replace("O", "").replace("Q", ""))
                 + _digits(r, 6))  # fmt: skip
    total = sum(_VIN_W[i] * (int(c) if c.isdigit() else _VIN_VAL[c]) for i, c in enumerate(chars))
    chars[8] = "X" if total % 11 == 10 else str(total % 11)
    return "".join(chars)


def _train(r: random.Random) -> str:
    cat = r.choice(["ICE", "IC", "EC", "TGV", "RJX", "IR", "EN", "NJ", "AVE", "SJ", "Frecciarossa"])
    return f"{cat} {r.randint(12, 9899)}"


def _pnr(r: random.Random) -> str:
    return _letters(r, 6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")


def _accession(r: random.Random) -> str:
    kind = r.randrange(4)
    if kind == 0:
        return f"{r.randint(1890, 2021)}.{r.randint(1, 999)}.{r.randint(1, 40)}{r.choice(['', 'a', 'a-b'])}"
    if kind == 1:
        return f"{r.choice('TEWPM')}.{r.randint(1, 999)}-{r.randint(1900, 2019)}"
    if kind == 2:
        return f"SK-{r.choice('AC')}-{r.randint(100, 4999)}"
    return f"Inv. {r.randint(100, 9999)}/{r.randint(1950, 2019)}"


# --- settings ---------------------------------------------------------------------------

_TZ = ("America/St_Johns", "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Chatham",
       "America/Argentina/Ushuaia", "Atlantic/Reykjavik", "Europe/Chisinau", "America/Nuuk",
       "Pacific/Marquesas", "Asia/Tehran", "America/Punta_Arenas", "Africa/Casablanca",
       "Indian/Cocos", "Australia/Eucla", "Antarctica/Troll", "Atlantic/Azores",
       "Asia/Ulaanbaatar", "America/Havana", "Europe/Astrakhan", "Pacific/Kiritimati")  # fmt: skip
_LOCALES = ("pt-BR", "de-CH", "sv-FI", "fr-CA", "es-419", "nb-NO", "en-IE", "nl-BE",
            "it-CH", "ca-ES", "is-IS", "pl-PL", "tr-TR", "da-GL", "fr-LU")  # fmt: skip
_FONTS = ("Atkinson Hyperlegible", "Fira Sans Condensed", "Noto Serif Display", "Literata",
          "Inter Tight", "EB Garamond", "Spectral", "Besley", "Alegreya Sans SC",
          "Crimson Pro", "Libre Franklin", "Source Serif 4", "IBM Plex Sans Condensed",
          "Bricolage Grotesque", "Young Serif", "Instrument Sans")  # fmt: skip


def _color(r: random.Random) -> str:
    if r.random() < 0.5:
        return f"oklch({r.randint(40, 85)}% {r.uniform(0.05, 0.3):.2f} {r.randint(0, 359)})"
    return "#" + "".join(r.choice("0123456789abcdef") for _ in range(6))


def _path(r: random.Random) -> str:
    y, m = r.randint(2019, 2025), r.randint(1, 12)
    kind = r.randrange(9)
    if kind == 0:
        return f"/srv/formulary/{y}-Q{r.randint(1, 4)}/atc_{_atc(r)}.csv"
    if kind == 1:
        return f"data/ais/{_mmsi(r)}/{y}-{m:02}-{r.randint(1, 28):02}.parquet"
    if kind == 2:
        return f"~/Noten/Bach/BWV_{r.randint(525, 1080)}_Präludium_v{r.randint(2, 9)}.musicxml"
    if kind == 3:
        return f"s3://lab-seq-{r.choice(['eu-north', 'ap-south', 'sa-east'])}/runs/{y}{m:02}_{_letters(r, 4)}/fastq/"
    if kind == 4:
        name = r.choice(["Kovač", "Ødegaard", "Núñez", "Łukasik", "Müller-Lüdenscheidt"])
        return f"C:\\Users\\mthiel\\Mandanten\\{name}\\{y}-{_digits(r, 4)}\\Schriftsatz_v{r.randint(2, 7)}.docx"
    if kind == 5:
        return f"/mnt/obs/{y}-{m:02}-{r.randint(1, 28):02}/fits/NGC{r.randint(100, 7840)}_{r.choice('BVRI')}_{r.randint(1, 240):03}.fits"
    if kind == 6:
        return f"gs://retail-feeds/{r.choice(['de_DE', 'pl_PL', 'pt_BR', 'sv_SE'])}/gtin={_gtin(r)}/part-{_digits(r, 5)}.avro"
    if kind == 7:
        return f"./exports/{r.choice(_PLACES).replace(' ', '_')}_timetable_{y}.pdf"
    return f"/home/coach/video/U{r.choice([15, 17, 19])} – Spieltag {r.randint(1, 34)}/Halbzeit {r.choice([1, 2])}.mp4"


VALUES = {
    "flight": _flight, "tail": _tail, "notam": _notam, "metar_wind": _metar_wind,
    "flevel": _flevel, "ndc": _ndc, "atc": _atc, "icd": _icd, "dose": _dose, "imo": _imo,
    "mmsi": _mmsi, "locode": _locode, "w3w": _w3w, "iban": _iban, "iban_e": _iban_e,
    "isin": _isin, "bic": _bic, "ticker": _ticker, "amount": _amount, "ecli": _ecli,
    "case": _case, "statute": _statute, "radec": _radec, "twomass": _twomass,
    "isrc": _isrc, "opus": _opus, "key": _key, "tempo": _tempo, "laptime": _laptime,
    "rsid": _rsid, "hgvs": _hgvs, "locus": _locus, "sample": _sample, "gtin": _gtin,
    "sku": _sku, "order": _order, "place": _place, "coord": _coord, "course": _course,
    "isbn": _isbn, "smiles": _smiles, "cas": _cas, "inchikey": _inchikey, "vin": _vin,
    "train": _train, "pnr": _pnr, "accession": _accession,
    "tz": lambda r: r.choice(_TZ), "locale": lambda r: r.choice(_LOCALES),
    "font": lambda r: r.choice(_FONTS), "color": _color, "path": _path,
}  # fmt: skip

TABLE = r"""
constraint amount | Budget for the whole charter is capped at {v} (fuel surcharge included). Anything above needs finance to sign off, so the quote script must never go past it.
constraint dose | quick one before you carry on — the paediatric calculator may never output more than {v}. that ceiling comes straight from the formulary committee
constraint flevel | If the optimiser ever proposes anything above {v} for the ferry flight, clamp it; the airframe lost its RVSM approval last week.
constraint place | Some background first: the dealer network is being reorganised, most of the old routing logic goes away and the import job still runs at night. Only orders leaving the warehouse in {v} may be rerouted; every other depot stays exactly as it is. Beyond that, start wherever you think makes sense.
constraint isin | Could you rebalance the model portfolio without touching the position in {v}? The client has a lock-up on it until March.
constraint course | Requirements for the timetable export:\n- nothing before 08:15\n- {v} and its lab section must never overlap\n- keep the room assignments as they are
constraint tempo | fyi the click track has to stay locked at {v} for the whole set, the drummer's in-ear mix depends on it
constraint icd | Wenn du die Abrechnungsregeln anfasst: Fälle mit der Diagnose {v} dürfen nie automatisch gruppiert werden, das prüft der Medizinische Dienst.
constraint locode | Restricción importante: el buque solo puede hacer escala en {v}. Cualquier otro puerto invalida la póliza del seguro.
constraint laptime | $ cat docs/SIM_RULES.md\n# Sim league rules (season 7)\n- Setups are frozen after FP2.\n- Any car slower than {v} in Q1 starts from the pit lane; the results importer has to enforce this.\n- Track limits: three strikes, then a drive-through.
constraint gtin | The one thing marketing insisted on (loudly): the hero product "{v}" stays at position 1 in every category listing, whatever the ranking model says.
constraint coord | Geofence for the survey drone: no waypoint more than 500 m from {v}. The aviation authority was very clear about that, so please build it into the planner as a hard check rather than a warning.
constraint dose | Limits from the clinical lead:\n\n| parameter | max |\n|---|---|\n| loading dose | {v} |\n| infusion rate | 0.5 mL/min |\n\nThe app has to reject anything beyond these.
constraint statute | Every generated cancellation clause has to cite {v} word for word, otherwise legal won't approve the release.
constraint pnr | Mind you, {v} is a group fare, so whatever the rebooking tool does, all nine passengers must stay on the same flight.
constraint train | re the connection planner: a change of trains only counts if the feeder is the {v} or a later one, the earlier services don't run on Sundays
constraint amount | $ cat config/refunds.yaml\nrefunds:\n  auto_approve_max: "{v}"   # hard cap, don't raise without the CFO\n  rounding: half_even\n  notify: treasury@example.org
constraint tz | All the deadline arithmetic has to happen in {v}; that's where the court sits, and a filing at 23:59 anywhere else doesn't count.
safety iban | Please never fire a test transfer at {v}. That's the escrow account of an actual client, not the sandbox.
safety mmsi | DO NOT TRANSMIT ANY AIS TEST MESSAGE WITH MMSI {v}. It belongs to a tanker that is at sea right now.
safety vin | Careful: {v} is a customer car sitting in the workshop. Don't push the OTA flashing script to it, under any circumstances.
safety path | Whatever cleanup you end up doing, {v} must not be deleted, moved or overwritten — it's the signed original and we can't regenerate it.
safety tail | The sim harness can reach the live ACARS gateway, so under no circumstances address {v}; it's flying passengers today.
safety path | Ne touche surtout pas à {v} : c'est l'export certifié pour l'audit, et on n'en a pas de sauvegarde récente.
safety sample | Samples from donor {v} are under withdrawn consent. Keep them out of every export, plot and test fixture, anonymised or not.
safety order | just so we're clear... order {v} is under a legal hold. no refund, no cancel, no edits. nothing.
safety case | Anything about {v} is sealed: it must never end up in logs, prompts or commit messages.
safety bic | $ cat SECURITY.md\n# Payments sandbox\n- Outbound SWIFT messages addressed to {v} are REAL. Never generate MT103s to it from tests.\n- Rotate the HSM PIN every quarter.
safety accession | pls dont run the bulk re-encode on object {v}, the rights holder forbids derivatives. rest of the collection is fine
safety rsid | Never show the genotype at {v} to end users (it's an incidental finding we're legally not allowed to return).
safety gtin | Article {v} was recalled on Friday. The repricing bot must not relist it — not even at zero stock, not even as "coming soon".
safety flight | Heads-up, and it's important: the delay-notification script must never text the passengers of {v}. That flight is being handled manually by the crisis team.
preference tz | When you print times in the crew roster I'd much rather see {v} than UTC; the crews think in local time.
preference locale | Small thing, but could the invoice PDFs format money with the {v} locale? Looks more natural to our customers.
preference place | No strong opinion on most of this. If there's a choice of hub, though, I like routing through {v}.
preference smiles | personally i'd generate the depiction from {v} rather than the vendor image, it renders nicer
preference ticker | For the benchmark line on the chart, {v} would be my pick if you don't mind; the broad index looks flat next to the fund.
preference font | Typographically: {v}, please. The style guide's default looks dated to me.
preference key | Would it bother you to transpose the warm-up exercises to {v}? The choir sits more comfortably there.
preference train | Mir wäre es lieber, wenn die Verbindung über den {v} läuft, auch wenn es zehn Minuten länger dauert.
preference course | If it were up to me, {v} would be the first elective on the page. Students ask about it all the time.
preference isrc | When there are duplicates, keep the recording with ISRC {v}; that's the remaster I like best.
preference bic | Where the correspondent is optional we generally prefer to settle via {v} (lower fees, faster confirmations).
preference color | colour-wise I lean towards {v} for the hazard badges, the current red is too aggressive
preference locale | Half of the readers are abroad, so it would be nice (not critical) if the report defaulted to {v}.
preference opus | For the demo playlist, start with {v} if it's in the catalogue? Sets the mood better than the default.
preference font | $ cat ~/.config/reader/settings.toml\n[typography]\n# chosen by the user during onboarding; respect it in generated PDFs\nbody_font = "{v}"\nhyphenate = true
preference place | Honestly I'd be happiest if the ferry option via {v} came first in the results. It's slower, but so much nicer.
tool_fact flight | $ curl -s "https://ops.example.net/api/v2/stands/B14/current"\n{{"stand": "B14", "flight": "{v}", "sta": "14:35Z", "status": "ON BLOCKS"}}
tool_fact imo | $ ais-lookup --mmsi 257123000\nName:        NORDLYS VIKING\nFlag:        Norway\nIdentifier:  {v}\nLast port:   Trondheim
tool_fact hgvs | $ vep --input_file variants.vcf --pick --tab -o STDOUT | grep -v '^#' | head -1\n17_7674220_C/T  17:7674220  T  TP53  missense_variant  {v}  MODERATE
tool_fact cas | $ grep -i "natriumazid" inventar/chemikalien.csv\nNatriumazid;{v};Schrank 4 (Giftschrank);250 g;verwendbar bis 2026-01
tool_fact isbn | $ sqlite3 library.db "select title, isbn from textbooks where course = 'PHYS 1010'"\nUniversity Physics, 15th ed.|{v}
tool_fact metar_wind | $ metar-cli EKCH --raw\nEKCH 120950Z {v} 9999 FEW040 04/M01 Q1016 NOSIG
tool_fact ecli | $ yq '.matters[0]' matters.yaml\nclient: Kovačević d.o.o.\nforum: Hoge Raad\nreference: {v}\nnext_hearing: 2025-02-18
tool_fact radec | $ ./targets.py show --id obs-3321\nobject:          comparison star C2\ncoords (J2000):  {v}\nV:               11.42 ± 0.03
tool_fact gtin | $ jq '.items[] | select(.sku == "TSH-ORG-M")' catalog.json\n{{\n  "sku": "TSH-ORG-M",\n  "gtin": "{v}",\n  "price": 24.90,\n  "currency": "EUR"\n}}
tool_fact locus | $ python scripts/top_region.py --bed hits.bed --pretty\nmerged 14 intervals -> 1 region\n{v}
tool_fact amount | $ hledger bal Assets:Escrow --end 2024-12-31\n        {v}  Assets:Escrow\n--------------------\n        {v}
tool_fact train | $ curl -s 'https://v6.db.transport.rest/stops/8000105/departures?duration=30' | jq -r '.departures[0].line.name'\n{v}
tool_fact vin | $ obd-info --port /dev/ttyUSB0\nProtocol: ISO 15765-4 CAN (11 bit ID, 500 kbaud)\nVIN: {v}\nCalibration ID: 0261S19437
tool_fact rsid | $ head -3 gwas_hits.csv\nsnp,chr,pos,p\n{v},6,32658079,3.1e-12\nrs9272346,6,32636595,8.4e-09
tool_fact pnr | $ gds retrieve --surname ØVERGÅRD\nRecord locator .... {v}\nSegments ......... 2 (OSL–KEF, KEF–BOS)\nFare basis ....... YLX7NO
tool_fact accession | $ xmllint --xpath '//object[1]' export/lido.xml\n<object><title xml:lang="de">Bildnis einer jungen Frau</title><inventoryNumber>{v}</inventoryNumber></object>
tool_fact atc | $ grep -n "Metamizol" formulary_2025.csv\n418:Metamizol-Natrium 500 mg;{v};Tbl.;N
tool_error iban_e | $ python payouts.py --batch 2024-11\nTraceback (most recent call last):\n  File "payouts.py", line 88, in <module>\n    validate(row.iban)\n  File "sepa/checks.py", line 31, in validate\n    raise UnknownBankCode(iban)\nsepa.checks.UnknownBankCode: no bank registered for {v}
tool_error ndc | $ ./rx-sync push --store 0412\nERROR 422 Unprocessable Entity: NDC {v} is not listed in the directory (inactive since 2023-06-30)
tool_error hgvs | $ hgvs-validate calls.txt\nline 17: HGVSInvalidVariantError: base at {v} does not agree with the reference (expected A, found G)
tool_error notam | $ notam-fetch --fir EKDK --series A\nfetch failed: upstream answered 404 for {v} (cancelled or expired?)
tool_error isin | $ npm run import:holdings\n\n> holdings@1.4.0 import:holdings\n> node scripts/import.js\n\nError: no instrument found for ISIN "{v}" (holdings.csv:212)\n    at resolveInstrument (scripts/import.js:77:11)
tool_error locode | $ cargo run --bin voyage-plan\n    Finished dev [unoptimized + debuginfo] target(s) in 0.41s\n     Running `target/debug/voyage-plan`\nthread 'main' panicked at src/ports.rs:57:9:\nunknown UN/LOCODE: {v}
tool_error smiles | $ python validate_structures.py --sheet batch_07.xlsx\n[10:42:17] SMILES Parse Error: unclosed ring for input: '{v}'\n1 structure(s) rejected
tool_error vin | $ pytest tests/test_fleet.py -q\nF.\nFAILED tests/test_fleet.py::test_decode - AssertionError: decoder returned model_year=None for {v}\n1 failed, 1 passed in 0.31s
tool_error course | $ make timetable\npython build.py --term WS24\nConflictError: {v} is scheduled twice on Tue 10:15–11:45 (rooms HS 1, HS 4)\nmake: *** [timetable] Error 1
tool_error cas | $ psql chem -c "insert into stock (cas, qty) select cas, 5 from staging"\nERROR:  duplicate key value violates unique constraint "stock_cas_key"\nDETAIL:  Key (cas)=({v}) already exists.
tool_error sku | $ shop-cli products push --store eu\n✖ Variant with SKU "{v}" rejected: inventory_quantity must be >= 0 (got -3)\n✔ 211 variants pushed
tool_error train | $ python fahrplan.py --datum 2024-12-15\nWARNUNG Fahrplanwechsel erkannt\nTraceback (most recent call last):\n  File "fahrplan.py", line 140, in <module>\n    umlauf = umlaeufe[zug]\nKeyError: '{v}'
tool_error mmsi | $ ais-decode capture.nmea | tail -2\n!AIVDM,1,1,,B,13u?etPv2;0n:dDPwUM1U1Cb069D,0*24\ndecode error: type 5 message from {v} has bad fill bits (6)
tool_error ecli | $ ./fetch_ruling.sh --lang nl\nHTTP/1.1 410 Gone\n{{"error": "document withdrawn", "id": "{v}", "detail": "anonymisation pending"}}
tool_error isbn | $ pandoc reader.md --citeproc -o reader.pdf\n[WARNING] Citeproc: citation isbn:{v} not found\nError producing PDF.\n! Undefined control sequence.
ai_path path | \n\nI wrote the cleaned export to {v}; open it from there when you want to check the totals.
ai_path path | \n\nThe file we actually need is {v}. Everything else in that folder is older drafts.
ai_path path | \n\n(For reference, the raw download sits at `{v}`.)
ai_path path | \n\nSaved: {v}
ai_path path | \n\nNext I'll diff the new manifest against "{v}", which is the last version anyone signed off on.
ai_path path | \n\nProgress so far:\n- parsed 1,204 rows\n- 17 rejected (bad dates)\n- output → {v}
ai_path path | \n\nLe fichier corrigé est ici : {v}
ai_path path |  Also, heads-up: the copy the import job really reads is {v}, not the one in the repo root.
ai_path path | \n\n{v} is what the nightly job produces, so that's what the parser will watch.
ai_path path | \n\nThe only setting I changed:\n```yaml\noutput: {v}\n```
ai_path path | \n\nThe re-rendered version is at {v}; the signed originals are untouched.
ai_path path | \n\nLooks good. One note: the fixture lives at {v} and is regenerated by `make fixtures`, so don't hand-edit it.
arg_identifier pnr | record_locator || {"status": "CONFIRMED", "passengers": 2, "segments": [{"from": "KEF", "to": "BOS", "cabin": "economy"}]}
arg_identifier imo | imo_number || Vessel found: MV ÅLANDSFÄRJAN, flag FI, gross tonnage 8 970, status moored (Mariehamn).
arg_identifier isin | isin || price: 101.375 (clean)\naccrued: 1.204\nas_of: 2024-11-29T16:30:00+01:00
arg_identifier rsid | variant_id || {"gene": "APOE", "consequence": "missense_variant", "gnomad_af": 0.1387, "clinvar": "risk factor"}
arg_identifier ecli | ecli || Uitspraak gevonden (3 pagina's). Rechtsgebied: Civiel recht; Verbintenissenrecht. Publicatiedatum: 2023-06-09.
arg_identifier vin | vin || open recall campaigns: 1 (23V-412: rear-view camera image may not display)
arg_identifier accession | object_number || rights: CC BY-SA 4.0 | master 6000×4000 px | last photographed 2019-03
arg_identifier gtin | gtin || Bestand: 0 @ Lager Nord, 14 @ Filiale Köln-Ehrenfeld. Nachbestellung läuft.
arg_identifier ndc | ndc_code || amoxicillin / clavulanate potassium 875 mg / 125 mg — 20 TABLET, FILM COATED in 1 BOTTLE
arg_identifier tail | registration || type A20N, engines 2× LEAP-1A26, next C-check 2025-04, no open MEL items
arg_identifier flight | flight_number || Delayed 47 min. New ETD 18:22 local; gate changed to C31.
arg_identifier twomass | designation || J = 12.881 ± 0.024, H = 12.317, Ks = 12.104 (ph_qual AAA)
arg_identifier isrc | isrc || Track: "Nocturne in C♯ minor", 4:21, label Edition Nordlys, territory: worldwide
arg_identifier iban_e | iban || valid: true\nsepa_instant: supported\nlast_verified: 2024-10-02
decision train | \n\nI'll book the {v} for the Sunday leg: it's the only one that still makes the 14:05 connection with a buffer.
decision smiles | \n\nDecision: use {v} as the reference structure, because the vendor's SDF has the wrong stereocentre.
decision bic | \n\nGoing with {v} as the intermediary bank. Reason: the other correspondent doesn't do same-day EUR.
decision place | \n\nAfter comparing the three candidate depots, {v} wins — shortest average drive time, and it already has the cold chain.
decision ticker | \n\nOK, I've picked {v} as the benchmark since its history predates the fund's, so the backtest covers the full window.
decision opus | \n\nFor the audition recording I'm choosing {v}; it shows legato and articulation in under four minutes, which fits the slot.
decision laptime | \n\nI'm setting the qualifying cut-off at {v}. That's 107% of the pole time, which is what the sporting regulations use.
decision tail |  Since it has the newest cabin and no deferred defects, I'm assigning {v} to the charter.
decision locode | \n\nWe'll divert to {v}. Why: the pilot station at the original port is closed for weather until Thursday.
decision hgvs | \n\nI'm reporting {v} as the primary finding and leaving the VUS for the appendix, because it's the only call with a pathogenic consensus in ClinVar.
decision course | \n\nEntscheidung: {v} bleibt im Dienstagsslot, weil die Laborgruppe sonst keinen freien Raum hat.
decision tz | \n\nI went with {v} as the scheduler's default. Most crews are based there, and it avoids the DST gap on the 30th.
decision isbn | \n\nTo keep costs down for students I'll list {v} (the paperback reprint) rather than the hardcover; the pagination is identical.
goal_change pnr | Change of plan: forget the refund for now. What I really need is to move booking {v} to the next available flight.
goal_change flight | Actually, let's park the seat-map thing. New priority: get everyone on {v} rebooked before the crew times out.
goal_change isin | ok new direction. drop the dashboard work, the client wants a reconciliation of every trade in {v} since january instead
goal_change imo | Stop there, please — the charterer called. Instead of the ETA model we now need a full port-call history for {v}.
goal_change case | New task (this supersedes the earlier one): draft a two-page summary of {v} for the partners' meeting tomorrow.
goal_change rsid | Never mind the QC plots. The PI now wants everything we have on {v}: frequencies, LD proxies, associated phenotypes.
goal_change gtin | Hmm, scrap the pricing rules. Can you instead figure out why {v} shows as out of stock on the website?
goal_change course | Bon, on change de cap : l'objectif maintenant, c'est de migrer les notes de {v} vers le nouveau système.
goal_change vin | Re-prioritising: the fleet manager needs the full service history of {v} today. The dashboard can wait until next sprint.
goal_change accession | Forget the thumbnails. The actual job is the loan paperwork for {v} — the museum in Lyon wants it by Friday.
goal_change ecli | Kleine Planänderung: Statt der Fristenberechnung brauche ich jetzt eine Übersicht zu {v}.
goal_change notam | Update on what I need: the airport briefing is cancelled, just check whether {v} affects our Tuesday departure.
goal_change train | plans changed!! not doing the fare calculator anymore. build me the delay tracker for {v} instead
correction dose | Standing order for bed 12: {v}. || Pharmacy just phoned: bed 12 has been re-dosed to {v} after the renal panel came back.
correction iban_e | Payouts for the Lisbon office go to {v}. || my bad, I pasted the wrong account earlier. it's {v}
correction isin | $ cat portfolio/model.yaml\ncore_bond: {v}\nweight: 0.35 || $ git diff portfolio/model.yaml\n@@ -1,2 +1,2 @@\n-core_bond: {old}\n+core_bond: {v}\n weight: 0.35
correction imo | The vessel named in the charter party is {v}. || $ psql fleet -f fix_charter_77.sql\n   imo\n---------\n {num}\n(1 row)\n\nUPDATE 1
correction locode | Discharge port: {v}. || Charterer's declaration (revised, 14:20 LT): discharge at {v}.
correction hgvs | Sanger confirmed {v} in the proband. || Re-read the trace with fresh eyes: the call is actually {v}; {old} was a misalignment next to the homopolymer.
correction case | Das Aktenzeichen lautet {v}. || Korrektur: Das richtige Aktenzeichen ist {v}, das vorige war aus dem Parallelverfahren.
correction pnr | $ gds retrieve --email j.orsted@example.dk --json\n{{"locator": "{v}", "status": "TICKETED"}} || $ gds retrieve --email j.orsted@example.dk --json\n{{"locator": "{v}", "status": "TICKETED", "previous_locator": "{old}", "reason": "schedule change re-issue"}}
correction train | We're taking the {v} to Basel. || Q: still the {old}? A (Mireille, just now): no, the strike forced a swap, it's the {v}.
correction amount | El presupuesto aprobado es {v}. || Perdona, me equivoqué con la cifra: el presupuesto es {v}.
correction tail | Tomorrow's rotation is flown by {v}. || $ tail -1 /var/log/ops/tail-swaps.log\n2025-01-14T05:12:09Z swap rotation=R4411 from={old} to={v} reason=AOG user=ops.kline
correction course | The make-up exam is for {v} students only. || Scrap what I said about {old}; the make-up exam is for {v}.
correction gtin | Use GTIN {v} for the gift box. || Packaging switched supplier, so the gift box now carries {v}.
correction radec | Pointing for tonight: {v}. || The coordinates I gave were B1950 by mistake, in J2000 it's {v}.
correction rsid | The lead SNP in the region is {v}. || After conditioning on the top hit, the lead SNP moved to {v}.
correction ndc | Dispense NDC {v} for the amoxicillin. || $ jira issue view PHARM-2231 --plain\nStatus: Resolved\nSummary: Wrong NDC on amoxicillin label\nResolution: label reprinted with {v} (was {old})
correction amount | Invoice total: {v}. || Invoice total: ~~{old}~~ {v} (credit note applied)
correction tz | Crew roster times are in {v}. || wait, nope, roster's in {v}. {old} is what the old system used
correction notam | The relevant NOTAM is {v}. || {v} replaces the one I quoted before; that earlier NOTAM was cancelled at 0600Z.
correction ticker | Benchmark: {v}. || Compliance bounced {old}. Benchmark is now {v}.
correction locus | $ cat panel.yaml\nregion: {v}\ncoverage_min: 30 || $ cat panel.yaml\nregion: {v}   # widened after review, was {old}\ncoverage_min: 30
correction flight | Le vol retour est le {v}. || Petite rectification : ce n'est pas le {old} mais le {v}.
correction sku | sku for the blue variant is {v} || ugh typo, shoudl be {v} for the blue one
correction isbn | The required textbook for the seminar is ISBN {v}. || $ cat inbox/latest.eml\nFrom: Prof. A. Nwachukwu\nSubject: Re: reading list (corrected)\n\nApologies, the publisher reissued it. Please order ISBN {v} instead.
correction laptime | Benchmark lap for the sim setup: {v}. || New benchmark lap after they re-laid the kerbs at T4: {v}.
correction w3w | Meet the surveyor at {v}. || $ dispatch show 5521\nmeeting_point: {v}\nnote:          moved from {old} (road closure)
correction ecli | The lead authority is {v}. || > The lead authority is {old}\n\nnot anymore, it was overruled. Cite {v}.
correction dose | Loading dose: {v}. || Updated dosing table from the ward:\n\n| drug | before | now |\n|---|---|---|\n| vancomycin | {old} | {v} |
correction locode | First call on the rotation is {v}. || The call at {old} has been cancelled by the line; cargo will be discharged at {v}.
correction flight | Outbound is {v}. || すみません、便名を間違えました。正しくは {v} です。
correction bic | Route EUR payments via {v}. || From Monday the EUR leg goes through {v} instead (treasury's new agreement).
correction vin | Diagnostics are for {v}. || Changes since yesterday:\n* workshop slot: unchanged\n* vehicle: {old} → {v}\n* loan car: confirmed
"""

plant = generator(VALUES, TABLE, prefix="heldout-l", salt=12_029)
