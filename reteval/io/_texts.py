"""The words of the readers' errors, in Chinese and English.

Catalogue entries ``io.<key>`` (:mod:`reteval._util.catalogue`): the message of an error
that names an entry (``InputError(key=...)``), and its fields said in words
(``<entry>.<field>.<value>``), for :func:`reteval._util.catalogue.error_message`.
"""

from reteval._util.catalogue import section

_WHAT = {"run": ("运行结果", "run"), "qrels": ("相关性判断", "qrels")}  # a duplicate's table

TEXTS = {
    # the duplicate check (reteval.io.duplicates)
    **section(
        "",
        duplicate=(("{what}中查询 {query!r} 的文档 {doc!r} 出现了两次：第 {first} 和第 {second} "
                    "{unit}"),
                   ("document {doc!r} appears twice for query {query!r} in the {what}, on {unit} "
                    "{first} and {second}")),
        # rows of a table whose index is not 0, 1, 2, ...: their index labels too
        duplicate_labelled=(
            ("{what}中查询 {query!r} 的文档 {doc!r} 出现了两次：第 {first} 和第 {second} "
             "行（从 0 数起；索引 {first_label} 和 {second_label}）"),
            ("document {doc!r} appears twice for query {query!r} in the {what}, on rows "
             "{first} and {second} (index {first_label} and {second_label})")),
    ),
    # their fields in words: <entry>.<field>.<value>
    **section("duplicate.what", **_WHAT),
    **section("duplicate_labelled.what", **_WHAT),
    **section(
        "duplicate.unit",
        rows=("行（从 0 数起）", "rows"),
        lines=("行", "lines"),
    ),
}
