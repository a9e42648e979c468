"""Every piece of prose the scenes show or narrate, in English, Chinese and Russian.

Keys: ``scene.<id>.description`` (one line for ``normgeo list``), ``scene.<id>.title``,
``<id>.<name>`` for on-screen labels (Typst markup, math between ``$``) and
``<id>.say.<step>`` for the narration of each step (plain text: it becomes the subtitles).
``{placeholders}`` are filled with numbers the core computed; literal braces are doubled.
The Chinese follows the source blog post's terms (径向投影, 零均值超平面, 自由度 …), the
Russian the source lesson's (нормировка, центрирование, предобусловливание …).
"""

from __future__ import annotations

__all__ = ["MESSAGES"]

MESSAGES: dict[str, dict[str, str]] = {
    # ----------------------------------------------------------------- common
    "common.unit-circle": {
        "en": "unit circle",
        "zh": "单位圆",
        "ru": "единичная окружность",
    },
    "common.zero-mean-line": {
        "en": "zero-mean line $x + y = 0$",
        "zh": "零均值直线 $x + y = 0$",
        "ru": "прямая нулевого среднего $x + y = 0$",
    },
    # ------------------------------------------------------ radial-projection
    "scene.radial-projection.description": {
        "en": "Normalizing is a radial projection: vectors slide along their rays onto the sphere",
        "zh": "归一化就是径向投影：向量沿射线滑到球面上",
        "ru": "Нормировка — радиальная проекция: векторы скользят по лучам на сферу",
    },
    "scene.radial-projection.title": {
        "en": "Normalization is a radial projection",
        "zh": "归一化是一次径向投影",
        "ru": "Нормировка — это радиальная проекция",
    },
    "radial-projection.sphere-set": {
        "en": "sphere: ${{v : norm(v)_2 = {radius}}}$",
        "zh": "球面：${{v : norm(v)_2 = {radius}}}$",
        "ru": "сфера: ${{v : norm(v)_2 = {radius}}}$",
    },
    "radial-projection.hyperplane-set": {
        "en": "zero-mean hyperplane: ${{v : sum_i v_i = 0}}$ \\ (a line through the origin in 2-D)",
        "zh": "零均值超平面：${{v : sum_i v_i = 0}}$ \\ （二维是一条过原点的直线）",
        "ru": "гиперплоскость нулевого среднего: ${{v : sum_i v_i = 0}}$ \\ (в 2-D — прямая через начало координат)",
    },
    "radial-projection.example": {
        "en": "$x = {x}$, $norm(x)_2 = {norm}$",
        "zh": "$x = {x}$，$norm(x)_2 = {norm}$",
        "ru": "$x = {x}$, $norm(x)_2 = {norm}$",
    },
    "radial-projection.example-result": {
        "en": "$x \\/ norm(x)_2 = {x} \\/ {norm} = {proj}$",
        "zh": "$x \\/ norm(x)_2 = {x} \\/ {norm} = {proj}$",
        "ru": "$x \\/ norm(x)_2 = {x} \\/ {norm} = {proj}$",
    },
    "radial-projection.direction-kept": {
        "en": "direction unchanged, only the length",
        "zh": "方向一点没变，只改了长度",
        "ru": "направление то же, меняется только длина",
    },
    "radial-projection.say.intro": {
        "en": "Geometrically, normalizing a vector is a radial projection.",
        "zh": "归一化在几何上就是一次径向投影。",
        "ru": "Геометрически нормировка вектора — это радиальная проекция.",
    },
    "radial-projection.say.sets": {
        "en": "Read two sets first. The sphere of radius R holds every vector of length R; "
        "the zero-mean hyperplane holds every vector whose entries sum to zero, and in 2-D it is a line through the origin.",
        "zh": "先把两个集合读清楚：半径 R 的球面是所有长度等于 R 的向量；零均值超平面是所有均值为 0 的向量，二维时就是一条过原点的直线。",
        "ru": "Сначала два множества. Сфера радиуса R — все векторы длины R; "
        "гиперплоскость нулевого среднего — все векторы с нулевой суммой координат, в 2-D это прямая через начало координат.",
    },
    "radial-projection.say.raw": {
        "en": "Here are raw vectors of different lengths and directions.",
        "zh": "这里是一些长短不一、方向各异的原始向量。",
        "ru": "Вот исходные векторы разной длины и разного направления.",
    },
    "radial-projection.say.rays": {
        "en": "Draw a ray from the origin through each of them.",
        "zh": "从原点朝每个向量画一条射线。",
        "ru": "Проведём из начала координат луч через каждый из них.",
    },
    "radial-projection.say.slide": {
        "en": "Shorten or stretch each arrow until it stops where its ray meets the sphere. "
        "The direction does not change at all; only the length does.",
        "zh": "把箭头缩短或拉长，让它恰好停在射线与球面的交点上。方向一点没变，只改了长度。",
        "ru": "Укоротим или удлиним каждую стрелку, пока она не остановится там, где луч пересекает сферу. "
        "Направление не меняется вовсе, меняется только длина.",
    },
    "radial-projection.say.example": {
        "en": "For example, x = {x} has length {norm}, so on the unit circle it becomes {x} divided by {norm}, which is {proj}.",
        "zh": "以 x = {x} 为例：长度为 {norm}，投影到单位圆上就是 {x} / {norm} = {proj}。",
        "ru": "Например, у x = {x} длина {norm}, и на единичной окружности он становится {x} / {norm} = {proj}.",
    },
    "radial-projection.say.formula": {
        "en": "In one line: x goes to R times x divided by its length.",
        "zh": "一句话：x 变成 R 乘以 x 除以它自己的长度。",
        "ru": "Одной формулой: x переходит в R, умноженное на x, делённый на свою длину.",
    },
    # ------------------------------------------------------------ sphere-radii
    "scene.sphere-radii.description": {
        "en": "L2 puts every vector on the unit sphere, RMSNorm on the sphere of radius √n",
        "zh": "L2 把向量压到单位球面，RMSNorm 压到半径 √n 的球面",
        "ru": "L2 кладёт векторы на единичную сферу, RMSNorm — на сферу радиуса √n",
    },
    "scene.sphere-radii.title": {
        "en": "L2 and RMSNorm land on two spheres",
        "zh": "L2 与 RMSNorm 落在两个球面上",
        "ru": "L2 и RMSNorm: две разные сферы",
    },
    "sphere-radii.l2-label": {
        "en": "L2: radius ${radius}$",
        "zh": "L2：半径 ${radius}$",
        "ru": "L2: радиус ${radius}$",
    },
    "sphere-radii.rms-label": {
        "en": "RMSNorm: radius $sqrt({n}) approx {radius}$",
        "zh": "RMSNorm：半径 $sqrt({n}) approx {radius}$",
        "ru": "RMSNorm: радиус $sqrt({n}) approx {radius}$",
    },
    "sphere-radii.in-dimension": {
        "en": "here $n = {n}$: $norm(hat(x))_2 = sqrt({n}) approx {radius}$",
        "zh": "这里 $n = {n}$：$norm(hat(x))_2 = sqrt({n}) approx {radius}$",
        "ru": "здесь $n = {n}$: $norm(hat(x))_2 = sqrt({n}) approx {radius}$",
    },
    "sphere-radii.say.raw": {
        "en": "Start again from raw vectors of mixed lengths and directions.",
        "zh": "还是从长短不一、方向各异的原始向量出发。",
        "ru": "Снова начнём с исходных векторов разной длины и направления.",
    },
    "sphere-radii.say.l2": {
        "en": "L2 divides each vector by its own length, so every output has length exactly 1: they all land on the unit circle.",
        "zh": "L2 归一化就是除以自己的长度，输出长度恒为 1：全部落在单位圆上。",
        "ru": "L2 делит каждый вектор на его длину, поэтому длина выхода ровно 1: все они попадают на единичную окружность.",
    },
    "sphere-radii.say.rms": {
        "en": "RMSNorm asks for something else: the root mean square of the output must be 1.",
        "zh": "RMSNorm 的条件不一样：输出的均方根等于 1。",
        "ru": "RMSNorm требует другого: среднеквадратичное выхода должно равняться единице.",
    },
    "sphere-radii.say.square": {
        "en": "Square both sides: the mean of the squared entries is 1.",
        "zh": "两边平方：各分量平方的平均值等于 1。",
        "ru": "Возведём в квадрат: среднее квадратов координат равно 1.",
    },
    "sphere-radii.say.sum": {
        "en": "So the sum of the squares is n.",
        "zh": "也就是平方和等于 n。",
        "ru": "Значит, сумма квадратов равна n.",
    },
    "sphere-radii.say.length": {
        "en": "And the sum of the squares is the squared length: the length is the square root of n, not 1.",
        "zh": "而平方和就是长度的平方：长度是 √n，不是 1。",
        "ru": "А сумма квадратов — это квадрат длины: длина равна √n, а не 1.",
    },
    "sphere-radii.say.result": {
        "en": "In {n} dimensions that is the circle of radius square root of {n}, about {radius}: RMSNorm puts the same vectors there.",
        "zh": "在 {n} 维中就是半径 √{n} ≈ {radius} 的圆：RMSNorm 把同样的向量压到这里。",
        "ru": "В размерности {n} это окружность радиуса √{n} ≈ {radius}: туда RMSNorm и кладёт те же векторы.",
    },
    # ----------------------------------------------------- layernorm-hyperplane
    "scene.layernorm-hyperplane.description": {
        "en": "LayerNorm in 3-D: subtract the mean onto the plane, scale onto the sphere; the output lies on both",
        "zh": "三维中的 LayerNorm：减均值落到超平面，再缩放到球面，输出落在两者交线上",
        "ru": "LayerNorm в 3-D: центрирование на плоскость, масштаб на сферу; выход лежит на обеих",
    },
    "scene.layernorm-hyperplane.title": {
        "en": "LayerNorm: hyperplane ∩ sphere",
        "zh": "LayerNorm：超平面 ∩ 球面",
        "ru": "LayerNorm: гиперплоскость ∩ сфера",
    },
    "layernorm-hyperplane.legend.plane": {
        "en": "zero-mean plane $sum_i v_i = 0$",
        "zh": "零均值超平面 $sum_i v_i = 0$",
        "ru": "плоскость нулевого среднего $sum_i v_i = 0$",
    },
    "layernorm-hyperplane.legend.ones": {
        "en": "direction $bold(1) = (1, …, 1)$",
        "zh": "方向 $bold(1) = (1, …, 1)$",
        "ru": "направление $bold(1) = (1, …, 1)$",
    },
    "layernorm-hyperplane.legend.sphere": {
        "en": "sphere $norm(v)_2 = sqrt({n}) approx {radius}$",
        "zh": "球面 $norm(v)_2 = sqrt({n}) approx {radius}$",
        "ru": "сфера $norm(v)_2 = sqrt({n}) approx {radius}$",
    },
    "layernorm-hyperplane.legend.circle": {
        "en": "plane ∩ sphere: where LayerNorm lands",
        "zh": "超平面 ∩ 球面：LayerNorm 的落点",
        "ru": "плоскость ∩ сфера: сюда попадает LayerNorm",
    },
    "layernorm-hyperplane.readout.x": {
        "en": "$x = {x}$",
        "zh": "$x = {x}$",
        "ru": "$x = {x}$",
    },
    "layernorm-hyperplane.readout.split": {
        "en": "$mu = {mean}$, $x - mu bold(1) = {centred}$",
        "zh": "$mu = {mean}$，$x - mu bold(1) = {centred}$",
        "ru": "$mu = {mean}$, $x - mu bold(1) = {centred}$",
    },
    "layernorm-hyperplane.readout.orthogonal": {
        "en": "$chevron.l mu bold(1), x - mu bold(1) chevron.r = {inner}$ (orthogonal)",
        "zh": "$chevron.l mu bold(1), x - mu bold(1) chevron.r = {inner}$（正交）",
        "ru": "$chevron.l mu bold(1), x - mu bold(1) chevron.r = {inner}$ (ортогональны)",
    },
    "layernorm-hyperplane.readout.result": {
        "en": "$hat(x) = {result}$: $sum_i hat(x)_i = {total}$, $norm(hat(x))_2 = {length}$",
        "zh": "$hat(x) = {result}$：$sum_i hat(x)_i = {total}$，$norm(hat(x))_2 = {length}$",
        "ru": "$hat(x) = {result}$: $sum_i hat(x)_i = {total}$, $norm(hat(x))_2 = {length}$",
    },
    "layernorm-hyperplane.say.intro": {
        "en": "LayerNorm does one thing more than L2 and RMSNorm: it first subtracts the mean.",
        "zh": "LayerNorm 比前两者多了一步：先减均值。",
        "ru": "LayerNorm делает на один шаг больше, чем L2 и RMSNorm: сначала вычитает среднее.",
    },
    "layernorm-hyperplane.say.plane": {
        "en": "In three dimensions the zero-mean vectors form a plane through the origin, orthogonal to the all-ones direction.",
        "zh": "在三维中，零均值向量组成一张过原点的平面，它与全 1 方向正交。",
        "ru": "В трёх измерениях векторы с нулевым средним образуют плоскость через начало координат, ортогональную направлению из единиц.",
    },
    "layernorm-hyperplane.say.vector": {
        "en": "Take the vector x = {x}.",
        "zh": "取向量 x = {x}。",
        "ru": "Возьмём вектор x = {x}.",
    },
    "layernorm-hyperplane.say.split": {
        "en": "Split it orthogonally: a common part, mu = {mean} times the ones vector, plus a zero-mean part. "
        "The two parts are orthogonal; their inner product is {inner}.",
        "zh": "用正交分解：公共部分 μ·1（μ = {mean}）加上零均值部分。两部分正交，内积为 {inner}。",
        "ru": "Разложим его ортогонально: общая часть μ·1 с μ = {mean} плюс часть с нулевым средним. "
        "Части ортогональны, их скалярное произведение равно {inner}.",
    },
    "layernorm-hyperplane.say.centre": {
        "en": "Subtracting mu times ones leaves the zero-mean part, which lies on the plane.",
        "zh": "减去 μ·1 后只剩零均值部分，它落在超平面上。",
        "ru": "После вычитания μ·1 остаётся часть с нулевым средним, и она лежит на плоскости.",
    },
    "layernorm-hyperplane.say.scale": {
        "en": "Dividing by sigma makes the variance 1, that is length square root of {n}: the output moves onto the sphere of that radius.",
        "zh": "再除以 σ，方差变为 1，等价于长度为 √{n}：输出落到这个半径的球面上。",
        "ru": "Деление на σ делает дисперсию равной 1, то есть длину равной √{n}: выход переходит на сферу этого радиуса.",
    },
    "layernorm-hyperplane.say.circle": {
        "en": "Both conditions hold at once, so the output lies where the plane cuts the sphere: on this circle.",
        "zh": "两个条件同时满足，输出就落在超平面与球面的交线上：这个圆。",
        "ru": "Оба условия выполняются сразу, поэтому выход лежит там, где плоскость пересекает сферу: на этой окружности.",
    },
    "layernorm-hyperplane.say.edge-on": {
        "en": "Seen edge-on, the plane is a line, and the output sits on it.",
        "zh": "从侧面看，平面成了一条线，输出就在这条线上。",
        "ru": "Если смотреть с ребра, плоскость — это линия, и выход лежит на ней.",
    },
    "layernorm-hyperplane.say.face-on": {
        "en": "Seen along the ones direction, the output sits on the intersection circle, of radius square root of {n}.",
        "zh": "沿全 1 方向看，输出落在半径为 √{n} 的交线圆上。",
        "ru": "Если смотреть вдоль направления из единиц, выход лежит на окружности пересечения радиуса √{n}.",
    },
    # ------------------------------------------------------------ layernorm-2d
    "scene.layernorm-2d.description": {
        "en": "In 2-D the zero-mean line meets the circle of radius √2 in two points: every input ends at one",
        "zh": "二维中零均值直线与半径 √2 的圆只交于两点：所有输入都落在其一",
        "ru": "В 2-D прямая нулевого среднего пересекает окружность радиуса √2 в двух точках",
    },
    "scene.layernorm-2d.title": {
        "en": "LayerNorm in 2-D: only two points left",
        "zh": "二维 LayerNorm：只剩两个点",
        "ru": "LayerNorm в 2-D: остаются две точки",
    },
    "layernorm-2d.circle-label": {
        "en": "circle $norm(v)_2 = sqrt(2) approx {radius}$",
        "zh": "圆 $norm(v)_2 = sqrt(2) approx {radius}$",
        "ru": "окружность $norm(v)_2 = sqrt(2) approx {radius}$",
    },
    "layernorm-2d.dof": {
        "en": "degrees of freedom left: $n - 2 = {dof}$",
        "zh": "剩余自由度：$n - 2 = {dof}$",
        "ru": "осталось степеней свободы: $n - 2 = {dof}$",
    },
    "layernorm-2d.dof-high": {
        "en": "at $n = {n}$: ${dof}$ free directions",
        "zh": "$n = {n}$ 时：仍有 ${dof}$ 个自由方向",
        "ru": "при $n = {n}$: ${dof}$ свободных направлений",
    },
    "layernorm-2d.count": {
        "en": "{count} random inputs → {landed} at ${p}$, {other} at ${q}$",
        "zh": "{count} 个随机输入 → {landed} 个落在 ${p}$，{other} 个落在 ${q}$",
        "ru": "{count} случайных входов → {landed} в ${p}$, {other} в ${q}$",
    },
    "layernorm-2d.say.line": {
        "en": "In two dimensions the zero-mean hyperplane is the line x plus y equals zero.",
        "zh": "二维时零均值超平面就是直线 x + y = 0。",
        "ru": "В двух измерениях гиперплоскость нулевого среднего — это прямая x + y = 0.",
    },
    "layernorm-2d.say.circle": {
        "en": "LayerNorm's sphere is the circle of radius square root of 2.",
        "zh": "LayerNorm 的球面是半径为 √2 的圆。",
        "ru": "Сфера LayerNorm — окружность радиуса √2.",
    },
    "layernorm-2d.say.meet": {
        "en": "They meet in only two points: {p} and {q}.",
        "zh": "它们只交于两个点：{p} 和 {q}。",
        "ru": "Они пересекаются всего в двух точках: {p} и {q}.",
    },
    "layernorm-2d.say.inputs": {
        "en": "Take {count} random inputs.",
        "zh": "取 {count} 个随机输入。",
        "ru": "Возьмём {count} случайных входов.",
    },
    "layernorm-2d.say.centre": {
        "en": "Subtracting the mean drops each of them onto the line.",
        "zh": "减去均值，每个点都落到这条直线上。",
        "ru": "Вычитание среднего опускает каждый из них на эту прямую.",
    },
    "layernorm-2d.say.scale": {
        "en": "Scaling to length square root of 2 sends every one of them to one of the two points.",
        "zh": "再缩放到长度 √2，每一个都落到这两个点之一。",
        "ru": "Масштабирование до длины √2 отправляет каждый в одну из двух точек.",
    },
    "layernorm-2d.say.dof": {
        "en": "Two dimensions leave LayerNorm n minus 2, that is {dof} degrees of freedom: only a sign survives. "
        "That is the extreme of 2-D; with {n} dimensions, {dof_high} free directions remain.",
        "zh": "n = 2 时 LayerNorm 剩 n − 2 = {dof} 个自由度，只剩正负两个方向，所以看起来什么都没了。这是二维的极端情况；{n} 维时仍有 {dof_high} 维的自由方向。",
        "ru": "В двух измерениях у LayerNorm остаётся n − 2 = {dof} степеней свободы: выживает только знак. "
        "Это крайний случай 2-D; при {n} измерениях остаётся {dof_high} свободных направлений.",
    },
    # ----------------------------------------------------- direction-not-length
    "scene.direction-not-length.description": {
        "en": "After normalization differences live in direction: (3, 4) and (6, 8) merge, (4, 3) stays apart",
        "zh": "归一化后差异体现在方向上：(3, 4) 与 (6, 8) 合并，(4, 3) 保持不同",
        "ru": "После нормировки различия — в направлении: (3, 4) и (6, 8) сливаются, (4, 3) — нет",
    },
    "scene.direction-not-length.title": {
        "en": "Differences live in direction, not length",
        "zh": "差异在方向，不在长度",
        "ru": "Различие — в направлении, а не в длине",
    },
    "direction-not-length.full-scale": {
        "en": "full scale",
        "zh": "原始尺度",
        "ru": "исходный масштаб",
    },
    "direction-not-length.zoomed": {
        "en": "unit circle, enlarged",
        "zh": "单位圆（放大）",
        "ru": "единичная окружность (крупно)",
    },
    "direction-not-length.merged": {
        "en": "$x = {x}$, $y = {y}$ $->$ both ${px}$: merged (distance ${gap}$)",
        "zh": "$x = {x}$，$y = {y}$ $->$ 都是 ${px}$：被合并（距离 ${gap}$）",
        "ru": "$x = {x}$, $y = {y}$ $->$ оба ${px}$: слились (расстояние ${gap}$)",
    },
    "direction-not-length.lost": {
        "en": "lost: the length, $norm(x)_2 = {nx}$ vs $norm(y)_2 = {ny}$",
        "zh": "丢掉的是长度：$norm(x)_2 = {nx}$ 与 $norm(y)_2 = {ny}$",
        "ru": "потеряна длина: $norm(x)_2 = {nx}$ и $norm(y)_2 = {ny}$",
    },
    "direction-not-length.kept": {
        "en": "$x = {x}$, $z = {z}$ $->$ ${px}$, ${pz}$: kept apart (distance ${gap}$)",
        "zh": "$x = {x}$，$z = {z}$ $->$ ${px}$ 与 ${pz}$：差异保留（距离 ${gap}$）",
        "ru": "$x = {x}$, $z = {z}$ $->$ ${px}$, ${pz}$: различие сохранилось (расстояние ${gap}$)",
    },
    "direction-not-length.say.intro": {
        "en": "Once every length is the same, all differences between vectors have to live in their direction.",
        "zh": "长度被统一后，数据的差异全部体现在方向上。",
        "ru": "Когда длины уравнены, все различия между векторами остаются только в направлении.",
    },
    "direction-not-length.say.same": {
        "en": "x = {x} and y = {y} point the same way; only their lengths differ.",
        "zh": "x = {x} 与 y = {y} 方向相同、长度不同。",
        "ru": "x = {x} и y = {y} смотрят в одну сторону; различаются только длиной.",
    },
    "direction-not-length.say.merge": {
        "en": "After L2 both become {px}: they merge. Their lengths, {nx} and {ny}, are thrown away on purpose.",
        "zh": "L2 之后都变成 {px}：被合并，长度 {nx} 和 {ny} 被故意丢掉。",
        "ru": "После L2 оба становятся {px}: они сливаются. Их длины, {nx} и {ny}, отброшены намеренно.",
    },
    "direction-not-length.say.other": {
        "en": "x = {x} and z = {z} point in different directions.",
        "zh": "x = {x} 与 z = {z} 方向不同。",
        "ru": "x = {x} и z = {z} направлены по-разному.",
    },
    "direction-not-length.say.kept": {
        "en": "They land on {px} and {pz}, {gap} apart: the difference survives.",
        "zh": "L2 后是 {px} 与 {pz}，相距 {gap}：差异保留。",
        "ru": "Они попадают в {px} и {pz}, на расстоянии {gap}: различие сохраняется.",
    },
    "direction-not-length.say.summary": {
        "en": "What normalization discards is the length; what it keeps is the direction.",
        "zh": "归一化丢掉的是长度，留下的是方向。",
        "ru": "Нормировка отбрасывает длину и сохраняет направление.",
    },
    # ------------------------------------------------------- degrees-of-freedom
    "scene.degrees-of-freedom.description": {
        "en": "Count what is left: n, n − 1, n − 2 degrees of freedom, and γ bringing scale back",
        "zh": "数一数还剩多少：n、n − 1、n − 2 个自由度，以及 γ 把尺度找回来",
        "ru": "Сколько остаётся: n, n − 1, n − 2 степеней свободы, и γ возвращает масштаб",
    },
    "scene.degrees-of-freedom.title": {
        "en": "Degrees of freedom: what is left",
        "zh": "自由度：还剩多少信息",
        "ru": "Степени свободы: что остаётся",
    },
    "degrees-of-freedom.header.state": {"en": "state", "zh": "状态", "ru": "состояние"},
    "degrees-of-freedom.header.constraint": {"en": "constraint", "zh": "约束", "ru": "ограничение"},
    "degrees-of-freedom.header.left": {"en": "left", "zh": "剩余自由度", "ru": "остаётся"},
    "degrees-of-freedom.header.n": {"en": "$n = {n}$", "zh": "$n = {n}$", "ru": "$n = {n}$"},
    "degrees-of-freedom.row.none": {"en": "raw vector", "zh": "原始向量", "ru": "исходный вектор"},
    "degrees-of-freedom.row.l2": {"en": "L2 / RMSNorm", "zh": "L2 / RMSNorm", "ru": "L2 / RMSNorm"},
    "degrees-of-freedom.row.layernorm": {"en": "LayerNorm", "zh": "LayerNorm", "ru": "LayerNorm"},
    "degrees-of-freedom.constraint.none": {"en": "none", "zh": "无", "ru": "нет"},
    "degrees-of-freedom.constraint.l2": {"en": "length fixed", "zh": "长度固定", "ru": "длина фиксирована"},
    "degrees-of-freedom.constraint.layernorm": {
        "en": "length fixed, mean 0",
        "zh": "长度固定 + 均值为 0",
        "ru": "длина фиксирована, среднее 0",
    },
    "degrees-of-freedom.qwen": {
        "en": "Qwen2, $n = {n}$: ${l2}$ and ${ln}$ left: almost nothing lost",
        "zh": "Qwen2，$n = {n}$：剩 ${l2}$ 和 ${ln}$ 个，信息量几乎没少",
        "ru": "Qwen2, $n = {n}$: остаётся ${l2}$ и ${ln}$ — почти ничего не потеряно",
    },
    "degrees-of-freedom.gamma": {
        "en": "$y = gamma dot.o hat(x)$, $gamma = {gamma}$: scale comes back",
        "zh": "$y = gamma dot.o hat(x)$，$gamma = {gamma}$：尺度逐维缩放回来",
        "ru": "$y = gamma dot.o hat(x)$, $gamma = {gamma}$: масштаб возвращается",
    },
    "degrees-of-freedom.legend.circle": {
        "en": "RMSNorm output: circle of radius $sqrt(2) approx {radius}$",
        "zh": "RMSNorm 输出：半径 $sqrt(2) approx {radius}$ 的圆",
        "ru": "выход RMSNorm: окружность радиуса $sqrt(2) approx {radius}$",
    },
    "degrees-of-freedom.legend.ellipse": {
        "en": "after $gamma$: an ellipse, scale per dimension",
        "zh": "乘以 $gamma$ 后：椭圆，逐维恢复尺度",
        "ru": "после $gamma$: эллипс, масштаб по каждой оси",
    },
    "degrees-of-freedom.say.intro": {
        "en": "Count how much information is left, in degrees of freedom.",
        "zh": "用自由度来数一数还剩多少信息。",
        "ru": "Посчитаем, сколько информации остаётся, в степенях свободы.",
    },
    "degrees-of-freedom.say.raw": {
        "en": "A raw vector in n dimensions has n: its length and its direction.",
        "zh": "原始向量没有约束，有 n 个自由度：长度加方向。",
        "ru": "У исходного вектора в n измерениях их n: длина и направление.",
    },
    "degrees-of-freedom.say.l2": {
        "en": "L2 and RMSNorm fix the length, so n minus 1 remain: the direction only.",
        "zh": "L2 / RMSNorm 固定了长度，剩 n − 1 个：只剩方向。",
        "ru": "L2 и RMSNorm фиксируют длину: остаётся n − 1, только направление.",
    },
    "degrees-of-freedom.say.layernorm": {
        "en": "LayerNorm fixes the length and the mean: n minus 2 remain.",
        "zh": "LayerNorm 固定长度且均值为 0：剩 n − 2 个。",
        "ru": "LayerNorm фиксирует длину и среднее: остаётся n − 2.",
    },
    "degrees-of-freedom.say.qwen": {
        "en": "Qwen2's hidden size is {n}: {l2} degrees of freedom remain after RMSNorm and {ln} after LayerNorm. "
        "Almost nothing is lost; what is dropped is exactly the scale that drifts from layer to layer.",
        "zh": "Qwen2 的隐藏维 n = {n}：RMSNorm 后剩 {l2} 个自由度，LayerNorm 后剩 {ln} 个，信息量几乎没少——被丢掉的恰恰是那个会逐层漂移、需要抹掉的尺度。",
        "ru": "Скрытая размерность Qwen2 — {n}: после RMSNorm остаётся {l2} степеней свободы, после LayerNorm — {ln}. "
        "Почти ничего не потеряно; отброшен именно тот масштаб, который дрейфует от слоя к слою.",
    },
    "degrees-of-freedom.say.gamma": {
        "en": "If the network needs scale, the learnable per-dimension weight gamma after normalization gives it back: "
        "gamma = {gamma} stretches the circle into an ellipse.",
        "zh": "若网络确实需要不同尺度，由归一化之后的可学习权重 γ 逐维缩放回来：γ = {gamma} 把圆拉成椭圆。",
        "ru": "Если сети нужен масштаб, его возвращает обучаемый поэлементный вес γ после нормировки: "
        "γ = {gamma} растягивает окружность в эллипс.",
    },
# ------------------------------------------------------------ unified-formula
    "scene.unified-formula.description": {
        "en": "One formula for every layer: centre, scale, affine; the layers differ only in their axes",
        "zh": "所有归一化层同一个公式：中心化、缩放、仿射；区别只在取统计量的轴",
        "ru": "Одна формула для всех слоёв: центрирование, масштаб, аффинная часть; различаются только оси",
    },
    "scene.unified-formula.title": {
        "en": "One formula, different axes",
        "zh": "同一个公式，不同的轴",
        "ru": "Одна арифметика, разные оси",
    },
    "unified-formula.part.centre": {
        "en": "centre: subtract $mu$",
        "zh": "中心化：减去 $mu$",
        "ru": "центрирование: вычесть $mu$",
    },
    "unified-formula.part.scale": {
        "en": "scale: divide by $sqrt(sigma^2 + epsilon)$",
        "zh": "缩放：除以 $sqrt(sigma^2 + epsilon)$",
        "ru": "масштаб: поделить на $sqrt(sigma^2 + epsilon)$",
    },
    "unified-formula.part.affine": {
        "en": "affine: learnable $gamma$, $beta$",
        "zh": "仿射：可学习的 $gamma$、$beta$",
        "ru": "аффинная часть: обучаемые $gamma$, $beta$",
    },
    "unified-formula.grid-caption": {
        "en": "rows: batch ↓, columns: features →; one shade = one $mu, sigma$",
        "zh": "行：batch ↓，列：特征 →；同一色块共用一组 $mu, sigma$",
        "ru": "строки: batch ↓, столбцы: признаки →; один оттенок — одни $mu, sigma$",
    },
    "unified-formula.axes.batchnorm": {
        "en": "$mu, sigma$ over the batch axis, per feature",
        "zh": "$mu, sigma$ 沿 batch 轴，逐特征计算",
        "ru": "$mu, sigma$ по оси batch, для каждого признака",
    },
    "unified-formula.axes.layernorm": {
        "en": "$mu, sigma$ over the features of one example",
        "zh": "$mu, sigma$ 在单个样本的特征上计算",
        "ru": "$mu, sigma$ по признакам одного примера",
    },
    "unified-formula.axes.rmsnorm": {
        "en": "over the features, without centring: $x \\/ sqrt(overline(x^2) + epsilon)$",
        "zh": "在特征上计算，不做中心化：$x \\/ sqrt(overline(x^2) + epsilon)$",
        "ru": "по признакам, без центрирования: $x \\/ sqrt(overline(x^2) + epsilon)$",
    },
    "unified-formula.axes.groupnorm": {
        "en": "over a group of features ({groups} groups), per example",
        "zh": "在一组特征上计算（{groups} 组），逐样本",
        "ru": "по группе признаков ({groups} группы), для каждого примера",
    },
    "unified-formula.say.intro": {
        "en": "All normalizing layers do the same thing: one formula.",
        "zh": "所有归一化层做的都是同一件事：一个公式。",
        "ru": "Все нормализующие слои делают одно и то же: одна формула.",
    },
    "unified-formula.say.centre": {
        "en": "First the centre: subtract the mean mu.",
        "zh": "先是中心化：减去均值 μ。",
        "ru": "Сначала центрирование: вычитаем среднее μ.",
    },
    "unified-formula.say.scale": {
        "en": "Then the scale: divide by the square root of the variance plus a small epsilon.",
        "zh": "然后是缩放：除以方差加一个小 ε 的平方根。",
        "ru": "Затем масштаб: делим на корень из дисперсии плюс маленькое ε.",
    },
    "unified-formula.say.affine": {
        "en": "Last the affine part: a learnable gamma and beta scale and shift the result back.",
        "zh": "最后是仿射部分：可学习的 γ 和 β 再把结果缩放、平移回来。",
        "ru": "И аффинная часть: обучаемые γ и β снова масштабируют и сдвигают результат.",
    },
    "unified-formula.say.axes": {
        "en": "The layers differ only in the axes over which mu and sigma are taken. As formulas they look alike; drawn as a partition of the grid they differ at once.",
        "zh": "各层的区别只在于 μ 和 σ 沿哪些轴计算。写成公式几乎一样，画成网格的划分就一目了然。",
        "ru": "Различаются они только тем, по каким осям берутся μ и σ. Формулами они почти одинаковы; нарисованные как разбиение решётки, различаются сразу.",
    },
    "unified-formula.say.batchnorm": {
        "en": "BatchNorm: one mean and one sigma per feature, taken down the batch.",
        "zh": "BatchNorm：每个特征一组 μ、σ，沿 batch 方向计算。",
        "ru": "BatchNorm: одно среднее и одна σ на признак, по оси batch.",
    },
    "unified-formula.say.layernorm": {
        "en": "LayerNorm: one mean and one sigma per example, across its features.",
        "zh": "LayerNorm：每个样本一组 μ、σ，在它的特征上计算。",
        "ru": "LayerNorm: одно среднее и одна σ на пример, по его признакам.",
    },
    "unified-formula.say.rmsnorm": {
        "en": "RMSNorm: the same axes as LayerNorm, but the centre is dropped.",
        "zh": "RMSNorm：和 LayerNorm 一样的轴，但去掉了中心化。",
        "ru": "RMSNorm: те же оси, что у LayerNorm, но без центрирования.",
    },
    "unified-formula.say.groupnorm": {
        "en": "GroupNorm: per example, over a group of neighbouring features; here {groups} groups.",
        "zh": "GroupNorm：逐样本，在一组相邻特征上计算；这里分 {groups} 组。",
        "ru": "GroupNorm: для каждого примера, по группе соседних признаков; здесь {groups} группы.",
    },
# ------------------------------------------------------------ normalization-axes
    "scene.normalization-axes.description": {
        "en": "The 4×4 grid: which cells BatchNorm, LayerNorm, RMSNorm and GroupNorm average together",
        "zh": "4×4 网格：BatchNorm、LayerNorm、RMSNorm、GroupNorm 分别把哪些格子一起求平均",
        "ru": "Решётка 4×4: какие ячейки усредняют вместе BatchNorm, LayerNorm, RMSNorm и GroupNorm",
    },
    "scene.normalization-axes.title": {
        "en": "Which cells share $mu$ and $sigma$",
        "zh": "哪些格子共用 $mu$ 和 $sigma$",
        "ru": "Какие ячейки делят $mu$ и $sigma$",
    },
    "normalization-axes.batch": {"en": "batch ↓", "zh": "batch ↓", "ru": "batch ↓"},
    "normalization-axes.features": {"en": "features →", "zh": "特征 →", "ru": "признаки →"},
    "normalization-axes.state.none": {"en": "no normalization", "zh": "不做归一化", "ru": "без нормировки"},
    "normalization-axes.state.batchnorm": {"en": "BatchNorm", "zh": "BatchNorm", "ru": "BatchNorm"},
    "normalization-axes.state.layernorm": {"en": "LayerNorm", "zh": "LayerNorm", "ru": "LayerNorm"},
    "normalization-axes.state.rmsnorm": {"en": "RMSNorm", "zh": "RMSNorm", "ru": "RMSNorm"},
    "normalization-axes.state.groupnorm": {
        "en": "GroupNorm, groups: {groups}",
        "zh": "GroupNorm，{groups} 组",
        "ru": "GroupNorm, групп: {groups}",
    },
    "normalization-axes.averaged-over": {
        "en": "averaged over: {axes}",
        "zh": "求平均的范围：{axes}",
        "ru": "усреднение по: {axes}",
    },
    "normalization-axes.values": {
        "en": "normalized values ($epsilon = {eps}$)",
        "zh": "归一化后的值（$epsilon = {eps}$）",
        "ru": "нормированные значения ($epsilon = {eps}$)",
    },
    "normalization-axes.raw-values": {"en": "raw values", "zh": "原始值", "ru": "исходные значения"},
    "normalization-axes.axes.none": {"en": "—", "zh": "—", "ru": "—"},
    "normalization-axes.axes.batchnorm": {"en": "the batch axis", "zh": "batch 轴", "ru": "оси batch"},
    "normalization-axes.axes.layernorm": {"en": "features", "zh": "特征", "ru": "признакам"},
    "normalization-axes.axes.rmsnorm": {
        "en": "features, without centring",
        "zh": "特征，不做中心化",
        "ru": "признакам, без центрирования",
    },
    "normalization-axes.axes.groupnorm": {"en": "a group of features", "zh": "一组特征", "ru": "группе признаков"},
    "normalization-axes.rms": {"en": "RMS", "zh": "均方根", "ru": "RMS"},
    "normalization-axes.mean": {"en": "mean", "zh": "均值", "ru": "среднее"},
    "normalization-axes.table.layer": {"en": "layer", "zh": "层", "ru": "слой"},
    "normalization-axes.table.averaged": {"en": "averaged over", "zh": "求平均的范围", "ru": "усреднение по"},
    "normalization-axes.table.depends": {"en": "depends on the batch", "zh": "依赖 batch", "ru": "зависит от батча"},
    "normalization-axes.table.used": {"en": "where it is used", "zh": "用在哪里", "ru": "где применяют"},
    "normalization-axes.yes": {"en": "yes", "zh": "是", "ru": "да"},
    "normalization-axes.no": {"en": "no", "zh": "否", "ru": "нет"},
    "normalization-axes.used.batchnorm": {
        "en": "conv nets, large batches",
        "zh": "卷积网络，大 batch",
        "ru": "свёрточные сети, большие батчи",
    },
    "normalization-axes.used.layernorm": {"en": "transformers", "zh": "Transformer 模型", "ru": "трансформеры"},
    "normalization-axes.used.rmsnorm": {"en": "modern LLMs", "zh": "现代大语言模型", "ru": "современные LLM"},
    "normalization-axes.used.groupnorm": {
        "en": "detection, small batches",
        "zh": "检测，小 batch",
        "ru": "детекция, малые батчи",
    },
    "normalization-axes.say.intro": {
        "en": "A batch as a grid: rows are examples of the batch, columns are features.",
        "zh": "把一个 batch 画成网格：行是 batch 里的样本，列是特征。",
        "ru": "Батч как решётка: строки — примеры батча, столбцы — признаки.",
    },
    "normalization-axes.say.batchnorm": {
        "en": "BatchNorm averages down each column: every feature gets its own mean and sigma, shared by the whole batch.",
        "zh": "BatchNorm 沿每一列求平均：每个特征一组均值和 σ，整个 batch 共用。",
        "ru": "BatchNorm усредняет по столбцам: у каждого признака своё среднее и σ, общие для всего батча.",
    },
    "normalization-axes.say.layernorm": {
        "en": "LayerNorm averages along each row: every example is normalized on its own.",
        "zh": "LayerNorm 沿每一行求平均：每个样本各自归一化。",
        "ru": "LayerNorm усредняет по строкам: каждый пример нормируется сам по себе.",
    },
    "normalization-axes.say.rmsnorm": {
        "en": "Switch to RMSNorm and look closely at the numbers: each row's RMS is 1, but its mean is not, about {mean} on this data. "
        "That is the whole difference from LayerNorm, and why RMSNorm is cheaper: no mean to compute or carry through the backward pass.",
        "zh": "切到 RMSNorm 仔细看数字：每一行的均方根是 1，但均值不是 0，在这组数据上约为 {mean}。这就是它和 LayerNorm 的全部区别，也是 RMSNorm 更便宜的原因：不用算均值，也不用在反向传播里带着它。",
        "ru": "Переключите на RMSNorm и посмотрите на цифры внимательно: среднеквадратичное по строке равно единице, а среднее — нет, около {mean} на этих данных. "
        "Это и есть вся разница с LayerNorm, и поэтому RMSNorm дешевле: не нужно считать среднее и протаскивать его через обратный проход.",
    },
    "normalization-axes.say.groupnorm": {
        "en": "GroupNorm splits each example's features into {groups} groups and normalizes each group.",
        "zh": "GroupNorm 把每个样本的特征分成 {groups} 组，每组各自归一化。",
        "ru": "GroupNorm делит признаки каждого примера на {groups} группы и нормирует каждую группу.",
    },
    "normalization-axes.say.groupnorm-again": {
        "en": "The number of groups is a dial: with {groups} groups the partition changes, and so do the values.",
        "zh": "组数是个旋钮：分成 {groups} 组时，划分变了，数值也跟着变。",
        "ru": "Число групп — это регулятор: при {groups} группах меняется разбиение, а с ним и значения.",
    },
    "normalization-axes.say.table": {
        "en": "What is chosen, and why: the column 'depends on the batch' is the decisive one.",
        "zh": "怎么选、为什么：'依赖 batch' 这一列是决定性的。",
        "ru": "Что выбирают и почему: столбец «зависит от батча» — решающий.",
    },
# ------------------------------------------------------------------ conditioning
    "scene.conditioning.description": {
        "en": "Normalization as preconditioning: κ ≈ 10⁸ before standardizing, tens after; gradient descent paths",
        "zh": "归一化即预条件：标准化前 κ ≈ 10⁸，之后几十；梯度下降路径",
        "ru": "Нормировка как предобусловливание: κ ≈ 10⁸ до стандартизации, десятки после; пути градиентного спуска",
    },
    "scene.conditioning.title": {
        "en": "Normalization as preconditioning",
        "zh": "归一化即预条件",
        "ru": "Нормализация как предобусловливание",
    },
    "conditioning.before": {
        "en": "features with scales ${small}$ and ${large}$",
        "zh": "特征尺度为 ${small}$ 和 ${large}$",
        "ru": "признаки с масштабами ${small}$ и ${large}$",
    },
    "conditioning.after": {"en": "after standardizing", "zh": "标准化之后", "ru": "после стандартизации"},
    "conditioning.kappa": {
        "en": "$kappa = {kappa}$",
        "zh": "$kappa = {kappa}$",
        "ru": "$kappa = {kappa}$",
    },
    "conditioning.drawn": {
        "en": "(drawn with $kappa = {kappa}$: the real ellipse would not fit)",
        "zh": "（按 $kappa = {kappa}$ 绘制：真实的椭圆画不下）",
        "ru": "(нарисовано с $kappa = {kappa}$: настоящий эллипс не поместится)",
    },
    "conditioning.steps": {
        "en": "steps to $10^(-6)$: ${steps}$",
        "zh": "收敛到 $10^(-6)$ 的步数：${steps}$",
        "ru": "шагов до $10^(-6)$: ${steps}$",
    },
    "conditioning.step-rule": {
        "en": "step $eta = {fraction} dot 2 \\/ L$, stable only for $eta < 2 \\/ L$, $L = lambda_max$",
        "zh": "步长 $eta = {fraction} dot 2 \\/ L$，只有 $eta < 2 \\/ L$ 才稳定，$L = lambda_max$",
        "ru": "шаг $eta = {fraction} dot 2 \\/ L$, устойчиво только при $eta < 2 \\/ L$, $L = lambda_max$",
    },
    "conditioning.say.intro": {
        "en": "The name of this lesson is not a metaphor: normalization changes the conditioning of the problem, and that is its main effect.",
        "zh": "这不是比喻：归一化改变了问题的条件数，这是它最主要的作用。",
        "ru": "Название урока — не метафора: нормализация меняет обусловленность задачи, и это её главный эффект.",
    },
    "conditioning.say.before": {
        "en": "The simplest case is standardizing the inputs. Two features with scales {small} and {large} give a least-squares Hessian with condition number {kappa}.",
        "zh": "最简单的情形是输入标准化。尺度为 {small} 和 {large} 的两个特征，最小二乘的 Hessian 条件数为 {kappa}。",
        "ru": "Простейший случай — стандартизация входов. Признаки с масштабами {small} и {large} дают гессиан наименьших квадратов с числом обусловленности {kappa}.",
    },
    "conditioning.say.drawn": {
        "en": "No screen can show an ellipse that narrow, so the picture uses kappa = {drawn}; every number stays the real one.",
        "zh": "这么扁的椭圆没法画出来，所以图里用 κ = {drawn}；所有数字仍然是真实问题的。",
        "ru": "Такой узкий эллипс не нарисовать, поэтому на картинке κ = {drawn}; все числа — настоящие.",
    },
    "conditioning.say.descent": {
        "en": "Gradient descent just under the step limit 2 over L zig-zags across the valley and crawls along it: on the real problem it needs {steps} steps.",
        "zh": "步长略小于上限 2/L 的梯度下降在山谷里来回折返、沿谷底缓慢爬行：在真实问题上需要 {steps} 步。",
        "ru": "Градиентный спуск с шагом чуть меньше предела 2/L мечется поперёк долины и ползёт вдоль неё: на настоящей задаче ему нужно {steps} шагов.",
    },
    "conditioning.say.after": {
        "en": "After standardizing, kappa falls to {kappa}, and the same descent needs {steps} steps.",
        "zh": "标准化之后 κ 降到 {kappa}，同样的梯度下降只需 {steps} 步。",
        "ru": "После стандартизации κ падает до {kappa}, и тот же спуск требует {steps} шагов.",
    },
    "conditioning.say.mechanisms": {
        "en": "Normalization layers do the same inside the network, where activation scales drift during training: equal scales give equal curvature and a smaller kappa, a smoother landscape allows a larger step.",
        "zh": "归一化层在网络内部做同样的事，那里激活的尺度会在训练中漂移：尺度一致，曲率就一致，κ 变小；地形更平滑，能用的步长更大。",
        "ru": "Нормализующие слои делают то же внутри сети, где масштабы активаций разъезжаются по ходу обучения: равные масштабы — равная кривизна и меньшее κ; более гладкий ландшафт допускает больший шаг.",
    },
# -------------------------------------------------------------- scale-invariance
    "scene.scale-invariance.description": {
        "en": "Scale the weights before a normalization by c: nothing changes; weight decay becomes a learning-rate knob",
        "zh": "把归一化之前的权重乘以 c：输出不变；weight decay 变成了学习率旋钮",
        "ru": "Умножьте веса перед нормировкой на c — выход не изменится; weight decay становится ручкой learning rate",
    },
    "scene.scale-invariance.title": {
        "en": "Only the direction of the weights matters",
        "zh": "只有权重的方向才重要",
        "ru": "Важно направление весов, а не длина",
    },
    "scale-invariance.factor": {"en": "$c = {c}$", "zh": "$c = {c}$", "ru": "$c = {c}$"},
    "scale-invariance.pre": {
        "en": "before the norm: $c W x$",
        "zh": "归一化之前：$c W x$",
        "ru": "до нормировки: $c W x$",
    },
    "scale-invariance.post": {
        "en": "after: $op(\"LN\")(c W x)$",
        "zh": "之后：$op(\"LN\")(c W x)$",
        "ru": "после: $op(\"LN\")(c W x)$",
    },
    "scale-invariance.iteration": {"en": "SGD step", "zh": "SGD 步数", "ru": "шаг SGD"},
    "scale-invariance.norm-axis": {
        "en": "weight norm $norm(W)$",
        "zh": "权重范数 $norm(W)$",
        "ru": "норма весов $norm(W)$",
    },
    "scale-invariance.step-axis": {
        "en": "effective step $eta \\/ norm(W)^2$",
        "zh": "有效步长 $eta \\/ norm(W)^2$",
        "ru": "эффективный шаг $eta \\/ norm(W)^2$",
    },
    "scale-invariance.run": {
        "en": "$eta = {lr}$, weight decay $lambda = {wd}$",
        "zh": "$eta = {lr}$，权重衰减 $lambda = {wd}$",
        "ru": "$eta = {lr}$, weight decay $lambda = {wd}$",
    },
    "scale-invariance.say.intro": {
        "en": "Multiply the weights of a layer that comes before a normalization by a number c.",
        "zh": "把归一化之前那一层的权重乘以一个数 c。",
        "ru": "Умножим веса слоя перед нормировкой на число c.",
    },
    "scale-invariance.say.scale": {
        "en": "The pre-activations scale with c, here c = {factors}, but the output does not change at all: the normalization divides by the same c.",
        "zh": "归一化之前的值随 c 缩放（这里 c = {factors}），输出却完全不变：归一化除掉了同一个 c。",
        "ru": "Значения до нормировки масштабируются вместе с c (здесь c = {factors}), а выход не меняется вовсе: нормировка делит на то же c.",
    },
    "scale-invariance.say.direction": {
        "en": "So the direction of the weights matters and their length does not.",
        "zh": "所以权重的方向重要，长度不重要。",
        "ru": "Значит, направление весов важно, а их длина — нет.",
    },
    "scale-invariance.say.decay": {
        "en": "Weight decay still shrinks the norm: in this run from {start} to {end} in {steps} steps.",
        "zh": "weight decay 仍然在缩小范数：这次训练中 {steps} 步从 {start} 降到 {end}。",
        "ru": "Weight decay всё равно уменьшает норму: в этом прогоне с {start} до {end} за {steps} шагов.",
    },
    "scale-invariance.say.effective": {
        "en": "A smaller norm means a larger step relative to it: the effective step grows from {first} to {last}. "
        "Weight decay acts on the effective learning rate; in such networks the two are not independent.",
        "zh": "范数越小，相对它的步长就越大：有效步长从 {first} 增长到 {last}。weight decay 实际上在调节有效学习率，在这类网络里两者并不独立。",
        "ru": "Меньше норма — больше шаг относительно неё: эффективный шаг растёт с {first} до {last}. "
        "Weight decay управляет эффективным learning rate; в таких сетях они не независимы.",
    },
# ---------------------------------------------------------------- covariate-shift
    "scene.covariate-shift.description": {
        "en": "Historical note: BatchNorm with noise that restores covariate shift still trains fast",
        "zh": "历史注记：加噪声恢复协变量偏移后，BatchNorm 依然训练得快",
        "ru": "Историческая справка: BatchNorm с шумом, возвращающим сдвиг распределений, всё равно обучается быстро",
    },
    "scene.covariate-shift.title": {
        "en": "Historical note: not covariate shift",
        "zh": "历史注记：不是协变量偏移",
        "ru": "Историческая справка: не covariate shift",
    },
    "covariate-shift.claim": {
        "en": "claimed: BatchNorm helps because it “reduces internal covariate shift”",
        "zh": "最初的解释：BatchNorm 有效是因为它“减少了内部协变量偏移”",
        "ru": "исходное объяснение: BatchNorm помогает, потому что «уменьшает internal covariate shift»",
    },
    "covariate-shift.test": {
        "en": "test (after Santurkar et al.): add noise after BatchNorm that shifts the distribution at every step",
        "zh": "检验（仿 Santurkar 等人）：在 BatchNorm 之后加入每步都变化的噪声，恢复分布偏移",
        "ru": "проверка (по Santurkar и др.): после BatchNorm добавить шум, сдвигающий распределение на каждом шаге",
    },
    "covariate-shift.variant.none": {"en": "no normalization", "zh": "不做归一化", "ru": "без нормировки"},
    "covariate-shift.variant.batchnorm": {"en": "BatchNorm", "zh": "BatchNorm", "ru": "BatchNorm"},
    "covariate-shift.variant.noisy-batchnorm": {
        "en": "BatchNorm + noise",
        "zh": "BatchNorm + 噪声",
        "ru": "BatchNorm + шум",
    },
    "covariate-shift.x-axis": {"en": "SGD step", "zh": "SGD 步数", "ru": "шаг SGD"},
    "covariate-shift.y-axis": {
        "en": "training loss (mean of {window} steps)",
        "zh": "训练损失（{window} 步滑动平均）",
        "ru": "loss на обучении (среднее по {window} шагам)",
    },
    "covariate-shift.shift-header": {
        "en": "input shift per step",
        "zh": "每步输入分布的移动",
        "ru": "сдвиг входов за шаг",
    },
    "covariate-shift.loss-header": {"en": "mean loss", "zh": "平均损失", "ru": "средний loss"},
    "covariate-shift.landscape-header": {
        "en": "loss variation along $nabla$",
        "zh": "沿梯度方向的损失起伏",
        "ru": "разброс loss вдоль $nabla$",
    },
    "covariate-shift.conclusion": {
        "en": "a practice that works is no proof \\ of the theory offered with it",
        "zh": "有效的做法 \\ 并不能证明随之提出的理论",
        "ru": "работающая практика — \\ не доказательство теории, стоящей за ней",
    },
    "covariate-shift.say.claim": {
        "en": "The original explanation of BatchNorm was that it reduces internal covariate shift. It was not confirmed.",
        "zh": "BatchNorm 最初的解释是“减少内部协变量偏移”。这个解释没有得到证实。",
        "ru": "Изначальное объяснение BatchNorm — «уменьшает internal covariate shift» — не подтвердилось.",
    },
    "covariate-shift.say.test": {
        "en": "Santurkar and colleagues tested it: add noise after BatchNorm that shifts the distribution again at every step.",
        "zh": "Santurkar 等人做了实验：在 BatchNorm 之后专门加噪声，让分布在每一步重新偏移。",
        "ru": "Santurkar и соавторы проверили это экспериментом: после BatchNorm добавили шум, заново сдвигающий распределение на каждом шаге.",
    },
    "covariate-shift.say.curves": {
        "en": "The same small network, data and batches, trained three ways at a learning rate of {lr}.",
        "zh": "同一个小网络、同样的数据和 batch，以学习率 {lr} 用三种方式训练。",
        "ru": "Одна и та же маленькая сеть, данные и батчи, обучение тремя способами с learning rate {lr}.",
    },
    "covariate-shift.say.shift": {
        "en": "With the noise, the inputs of the next layer move {ratio} times as much per step as with plain BatchNorm, more than without normalization at all.",
        "zh": "加了噪声之后，下一层输入每一步的移动是普通 BatchNorm 的 {ratio} 倍，甚至比不做归一化还大。",
        "ru": "С шумом входы следующего слоя сдвигаются за шаг в {ratio} раз сильнее, чем с обычным BatchNorm, — больше, чем вовсе без нормировки.",
    },
    "covariate-shift.say.fast": {
        "en": "Training stays fast all the same: mean loss {noisy} against {plain} for BatchNorm and {none} without it. So the shift was not the point.",
        "zh": "训练照样很快：平均损失 {noisy}，普通 BatchNorm 是 {plain}，不做归一化是 {none}。可见关键不在分布偏移。",
        "ru": "Обучение всё равно остаётся быстрым: средний loss {noisy} против {plain} у BatchNorm и {none} без нормировки. Значит, дело не в сдвиге.",
    },
    "covariate-shift.say.landscape": {
        "en": "What BatchNorm does change is the landscape: along the gradient the loss varies {none} without it and {plain} with it, a smaller effective L and a larger usable step.",
        "zh": "BatchNorm 真正改变的是损失地形：沿梯度方向，不做归一化时损失起伏 {none}，用了 BatchNorm 只有 {plain}，有效的 L 更小，可用的步长更大。",
        "ru": "Что BatchNorm действительно меняет — это ландшафт: вдоль градиента loss меняется на {none} без него и на {plain} с ним; эффективная L меньше, допустимый шаг больше.",
    },
    "covariate-shift.say.conclusion": {
        "en": "Keep it as an example: the method works, and the explanation it was proposed with turned out wrong. A practice that works is no proof of the theory behind it.",
        "zh": "值得记住这个例子：方法有效，而提出它时给出的解释是错的。有效的做法并不能证明它背后的理论。",
        "ru": "Стоит держать это в голове как пример: приём работает, а объяснение, с которым он был предложен, оказалось неверным. Работающая практика — не доказательство теории, стоящей за ней.",
    },
# --------------------------------------------------------------- batch-dependence
    "scene.batch-dependence.description": {
        "en": "BatchNorm's output depends on who else is in the batch: two batches, small-batch noise, train vs eval",
        "zh": "BatchNorm 的输出取决于同一个 batch 里还有谁：两个 batch、小 batch 的噪声、训练与推理模式",
        "ru": "Выход BatchNorm зависит от соседей по батчу: два батча, шум малых батчей, обучение и вывод",
    },
    "scene.batch-dependence.title": {
        "en": "Depending on the batch is decisive",
        "zh": "依赖 batch 是决定性的",
        "ru": "Зависимость от батча — решающая",
    },
    "batch-dependence.batch-a": {"en": "batch A", "zh": "batch A", "ru": "батч A"},
    "batch-dependence.batch-b": {"en": "batch B", "zh": "batch B", "ru": "батч B"},
    "batch-dependence.same-example": {
        "en": "the same example $x$ (top row) in both",
        "zh": "两个 batch 的第一行是同一个样本 $x$",
        "ru": "один и тот же пример $x$ (верхняя строка) в обоих",
    },
    "batch-dependence.bn-outputs": {
        "en": "BatchNorm($x$): A ${a}$, B ${b}$",
        "zh": "BatchNorm($x$)：A ${a}$，B ${b}$",
        "ru": "BatchNorm($x$): A ${a}$, B ${b}$",
    },
    "batch-dependence.ln-outputs": {
        "en": "LayerNorm($x$): A ${a}$, B ${b}$",
        "zh": "LayerNorm($x$)：A ${a}$，B ${b}$",
        "ru": "LayerNorm($x$): A ${a}$, B ${b}$",
    },
    "batch-dependence.batch-size": {"en": "batch size $B$", "zh": "batch 大小 $B$", "ru": "размер батча $B$"},
    "batch-dependence.spread-axis": {
        "en": "spread of the batch mean",
        "zh": "batch 均值的波动",
        "ru": "разброс среднего по батчу",
    },
    "batch-dependence.gap-axis": {
        "en": "$|$train − eval$|$ output",
        "zh": "训练与推理输出之差 $|dot|$",
        "ru": "$|$обучение − вывод$|$",
    },
    "batch-dependence.predicted": {
        "en": "measured (dots), $sigma \\/ sqrt(B)$ (line)",
        "zh": "实测（点），$sigma \\/ sqrt(B)$（线）",
        "ru": "измерено (точки), $sigma \\/ sqrt(B)$ (линия)",
    },
    "batch-dependence.say.intro": {
        "en": "BatchNorm couples the examples of a batch: the output for one depends on who else is in the batch.",
        "zh": "BatchNorm 让一个 batch 里的样本互相关联：一个样本的输出取决于 batch 里还有谁。",
        "ru": "BatchNorm связывает примеры батча: результат для одного зависит от того, кто ещё попал в батч.",
    },
    "batch-dependence.say.two-batches": {
        "en": "Put the same example into two batches: BatchNorm gives it two different outputs, LayerNorm gives it one.",
        "zh": "把同一个样本放进两个 batch：BatchNorm 给出两个不同的输出，LayerNorm 只给出一个。",
        "ru": "Положим один и тот же пример в два батча: BatchNorm даёт ему два разных выхода, LayerNorm — один.",
    },
    "batch-dependence.say.small": {
        "en": "With small batches the estimates of mu and sigma are noisy: the batch mean scatters as sigma over the square root of B, {small} at B = {b_small} against {large} at B = {b_large}.",
        "zh": "batch 小时，μ 和 σ 的估计很吵：batch 均值的波动按 σ/√B 变化，B = {b_small} 时为 {small}，B = {b_large} 时为 {large}。",
        "ru": "При малом батче оценки μ и σ шумны: среднее по батчу разбросано как σ/√B — {small} при B = {b_small} против {large} при B = {b_large}.",
    },
    "batch-dependence.say.inference": {
        "en": "At inference there is no batch, so running statistics are kept, and training and evaluation become two different modes. The gap is largest for small batches, and a forgotten model.eval() is a classic bug.",
        "zh": "推理时没有 batch，只能保存 running statistics，训练和推理就成了两种不同的模式。batch 越小差距越大，忘记调用 model.eval() 是常见的 bug。",
        "ru": "На инференсе батча нет, приходится хранить running statistics — и режимы обучения и вывода становятся разными. Разница больше всего при малых батчах, а забытый model.eval() — классический баг.",
    },
    "batch-dependence.say.layernorm": {
        "en": "In recurrent networks and with variable sequence lengths there is no meaningful batch axis at all. LayerNorm has none of these problems: it computes its statistics inside one example.",
        "zh": "在循环网络和变长序列中，根本没有有意义的 batch 轴。LayerNorm 没有这些问题：它的统计量在单个样本内部计算。",
        "ru": "В рекуррентных сетях и при переменной длине последовательности осмысленной оси batch просто нет. У LayerNorm ничего этого нет: он считает статистику внутри одного примера.",
    },
    # --------------------------------------------------------------- prenorm-postnorm
    "scene.prenorm-postnorm.description": {
        "en": "Pre-norm keeps a clean residual path; post-norm puts LN on it: gradient per block in a 24-block stack",
        "zh": "Pre-norm 保留干净的残差通路，post-norm 把 LN 放在通路上：24 层堆叠中每层的梯度",
        "ru": "Pre-norm сохраняет чистый residual-путь, post-norm ставит на него LN: градиент по блокам в стеке из 24",
    },
    "scene.prenorm-postnorm.title": {
        "en": "Pre-norm against post-norm",
        "zh": "Pre-norm 与 post-norm",
        "ru": "Pre-norm против post-norm",
    },
    "prenorm-postnorm.pre": {"en": "pre-norm", "zh": "pre-norm", "ru": "pre-norm"},
    "prenorm-postnorm.post": {"en": "post-norm", "zh": "post-norm", "ru": "post-norm"},
    "prenorm-postnorm.residual": {
        "en": "residual path",
        "zh": "残差通路",
        "ru": "residual-путь",
    },
    "prenorm-postnorm.block-axis": {
        "en": "block (1 = nearest the input)",
        "zh": "层（1 = 最靠近输入）",
        "ru": "блок (1 — ближайший ко входу)",
    },
    "prenorm-postnorm.grad-axis": {
        "en": "gradient reaching the block $norm(partial L \\/ partial x_l)$",
        "zh": "到达该层的梯度 $norm(partial L \\/ partial x_l)$",
        "ru": "градиент на входе блока $norm(partial L \\/ partial x_l)$",
    },
    "prenorm-postnorm.setup": {
        "en": "{depth} blocks, random linear $F$, width {width}, mean of {stacks} stacks",
        "zh": "{depth} 层，随机线性 $F$，宽度 {width}，{stacks} 个随机堆叠的平均",
        "ru": "{depth} блоков, случайная линейная $F$, ширина {width}, среднее по {stacks} стекам",
    },
    "prenorm-postnorm.say.intro": {
        "en": "One last detail, important for deep networks: the normalization can sit before the block or after it.",
        "zh": "最后一个对深层网络很重要的细节：归一化可以放在块之前，也可以放在块之后。",
        "ru": "Последняя деталь, важная для глубоких сетей: нормировку можно поставить до блока или после.",
    },
    "prenorm-postnorm.say.pre": {
        "en": "Pre-norm: x plus the block applied to LN of x. The residual path from input to output never passes a normalization.",
        "zh": "Pre-norm：x 加上作用在 LN(x) 上的块。从输入到输出的残差通路上没有任何归一化。",
        "ru": "Pre-norm: x плюс блок от LN(x). Residual-путь от входа к выходу не проходит через нормировку.",
    },
    "prenorm-postnorm.say.post": {
        "en": "Post-norm: LN of x plus the block. Every path, the residual one included, goes through a normalization.",
        "zh": "Post-norm：LN(x 加上块的输出)。每一条通路，包括残差通路，都要经过归一化。",
        "ru": "Post-norm: LN от суммы x и блока. Каждый путь, включая residual, проходит через нормировку.",
    },
    "prenorm-postnorm.say.gradients": {
        "en": "Backpropagate through {depth} blocks. With pre-norm the first block receives {pre_first}, at least what the last receives; with post-norm only {post_first}, against {post_last} at the last block.",
        "zh": "在 {depth} 层中反向传播。pre-norm 时第一层收到的梯度是 {pre_first}，不少于最后一层；post-norm 时只有 {post_first}，而最后一层是 {post_last}。",
        "ru": "Обратное распространение через {depth} блоков. С pre-norm первый блок получает {pre_first} — не меньше последнего; с post-norm лишь {post_first} против {post_last} у последнего блока.",
    },
    "prenorm-postnorm.say.conclusion": {
        "en": "That is why deep pre-norm stacks train without warm-up and with less care over the step size. Post-norm can be slightly better when tuned well, but it is fragile at depth, so modern models are almost all pre-norm.",
        "zh": "所以深层 pre-norm 堆叠不需要 warmup，对步长也没那么挑剔。post-norm 调得好时效果略好，但在大深度下明显更娇气——因此现代模型几乎都是 pre-norm。",
        "ru": "Это делает глубокие стеки обучаемыми без warmup и с меньшей аккуратностью в подборе шага. Post-norm даёт немного лучшее качество при удачной настройке, но заметно капризнее на большой глубине — поэтому современные модели почти все pre-norm.",
    },
}
