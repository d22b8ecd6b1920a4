"""The words of a test collection, in Chinese and English.

Catalogue entries ``datasets.<key>`` (:mod:`reteval._util.catalogue`).
"""

from reteval._util.catalogue import section

TEXTS = {
    **section(
        "",
        describe=("数据集 {name}：{documents} 个文档，{queries} 条查询，{judgments} 个相关性判断",
                  ("Dataset(name={name!r}, documents={documents}, queries={queries}, "
                   "judgments={judgments})")),
    ),
}
