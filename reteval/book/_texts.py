"""The words of the HTML book's frame, in Chinese and English.

Catalogue entries ``book.<key>`` (:mod:`reteval._util.catalogue`): the sections' titles
(``section.NN``), the navigation, the notes the book adds.
"""

from reteval._util.catalogue import section

TEXTS = {
    **section(
        "section",
        **{"01": ("评估指标", "Measures"),
           "02": ("作弊排行榜", "A cheating leaderboard"),
           "03": ("评估数据集与 RAG 评估", "The evaluation set and RAG evaluation"),
           "04": ("评估数据集可信吗", "Can the judgments be trusted"),
           "05": ("检索器对比评估", "Comparing retrievers"),
           "06": ("多个系统的比较", "Conclusions over many systems"),
           "07": ("A/B 测试", "A/B testing"),
           "07b": ("统计功效与序贯检验", "Power and sequential testing"),
           "08": ("交错实验", "Interleaving"),
           "09": ("持续评估", "Continuous evaluation"),
           "10": ("评估报告", "The evaluation report"),
           "11": ("交互式探索", "Interactive exploration")},
    ),
    **section(
        "",
        book=("检索评估 · 第七章配套笔记本", "Retrieval evaluation · notebooks of chapter 7"),
        contents=("目录", "Contents"),
        glossary=("术语表", "Glossary"),
        prev=("上一页", "Previous"),
        next=("下一页", "Next"),
        switch=("English", "中文"),
        files=("图表与报告", "Figures and reports"),
        figure=("笔记本输出的图", "a figure the notebook drew"),
        figures=("图表", "Figures"),
        reports=("报告", "Reports"),
        data=("笔记本与结果", "Notebook and results"),
        widget=(("此处是交互控件：它需要运行中的 Jupyter 内核，静态页面无法显示。"
                "笔记本打印的文本版本见本单元的其他输出。"),
                ("An interactive widget was here: it needs a live Jupyter kernel and cannot be "
                "shown in a static page. The text version the notebook prints is in this "
                "cell's other outputs.")),
        edition=("中文版", "English edition"),
        record=("记录结果的代码（供测试和报告使用）",
                "Code that records the results (for the tests and the report)"),
        none=("（尚未运行）", "(not run yet)"),
    ),
}
