"""The words of machine judges, in Chinese and English.

Catalogue entries ``judging.<key>`` (:mod:`reteval._util.catalogue`): the summaries and
failures of a round of judgments.
"""

from reteval._util.catalogue import section

TEXTS = {
    **section(
        "",
        summary=(("相关性判断：判定器 {judges} 判断了 {items} 个（查询，文档）对；调用 {calls} 次，"
                  "发送 {characters} 个字符，{failed} 个回答失败"),
                 ("Judgments({items} items judged by {judges}; {calls} calls, {characters} "
                  "characters, {failed} failed answers)")),
        dry_run=("相关性判断（试运行）：将调用 {calls} 次，发送 {characters} 个字符",
                 "Judgments(dry run: {calls} calls, {characters} characters)"),
        summary_cached=(("相关性判断：判定器 {judges} 判断了 {items} 个（查询，文档）对；"
                         "调用 {calls} 次，发送 {characters} 个字符，{failed} 个回答失败，"
                         "{cached} 个回答取自缓存"),
                        ("Judgments({items} items judged by {judges}; {calls} calls, {characters} "
                         "characters, {failed} failed answers, {cached} answers from the cache)")),
        dry_run_cached=(("相关性判断（试运行）：将调用 {calls} 次，发送 {characters} 个字符，"
                         "{cached} 个回答取自缓存"),
                        ("Judgments(dry run: {calls} calls, {characters} characters, {cached} "
                         "answers from the cache)")),
        none=("无", "none"),
        failed=(("判定器 {judge!r} 的 {calls} 个回答中有 {failed} 个失败；{lost} 个（查询，文档）对"
                 "没有得到等级（见 {attribute}）"),
                ("{failed} of {calls} answers from judge {judge!r} failed; {lost} item(s) got no "
                 "grade (see {attribute})")),
        not_integer=("回答 {answer!r} 不是整数等级", "answer {answer!r} is not an integer grade"),
        not_a_grade=("回答 {value} 不是等级 {grades} 之一",
                     "answer {value} is not one of the grades {grades}"),
    ),
}
