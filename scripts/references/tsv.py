# Reads and rewrites a fixture corpus's EXPECTED.tsv (tab-separated; `#` lines are comments; the
# first other line names the columns), changing only the columns a reference script measures, so
# the hand-written ones (expected outcome, notes) stay as they are.
from pathlib import Path


class Table:
    def __init__(self, path: Path):
        self.path = path
        self.lines = path.read_text().split("\n")
        self.header = None
        self.rows = []  # (line index, {column: value})
        for i, line in enumerate(self.lines):
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if self.header is None:
                self.header = cols
                continue
            if len(cols) != len(self.header):
                raise SystemExit(f"{path}:{i + 1}: {len(cols)} columns, the header names {len(self.header)}")
            self.rows.append((i, dict(zip(self.header, cols))))

    def __iter__(self):
        return (fields for _, fields in self.rows)

    def write(self):
        for i, fields in self.rows:
            self.lines[i] = "\t".join(fields[c] for c in self.header)
        self.path.write_text("\n".join(self.lines))


def unlisted(folder: Path, listed):
    """Files under `folder` that no row names: a reference nothing checks."""
    listed = {Path(p).resolve() for p in listed}
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.resolve() not in listed)
