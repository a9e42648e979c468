"""Where a subtitle line or cue may not break (issue 34), each rule on sentences built so that the
most even break falls exactly where the rule forbids one. Widths are counted by hand (Russian: one
per character; Chinese: one per Han character or full-width mark, a half per Latin letter, digit or
space), the cut is the most even one left (wrap: |first − second|, less 10 after punctuation; two
cues: the same, plus 8 for a first cue ending on a digit), the first of equals winning."""

import pytest

from scenes.kit.captions import _cues_between_words, _words, split_into_cues, wrap_cue

# Russian prepositions and particles a line never ends with (the list and the short ones).
PREPOSITIONS = ["при", "для", "без", "под", "над", "про", "ради", "через", "перед", "между", "вдоль",
                "в", "к", "с", "о", "у", "на", "по", "за", "из", "от", "до", "не"]
# A sentence start of each width 32 − len(preposition), so that "<start> <preposition>" is 33 wide,
# as wide as the rest, RIGHT.
STARTS = {1: "Выходы двух слоёв смотрим снова", 2: "Ответы слоя показываем ещё раз", 3: "Выходы обоих слоёв показываем",
          4: "Ответы слоя сравниваем здесь", 5: "Ответы слоя изучаем ещё раз"}
RIGHT = "одинаковыми входами разной длины."


def flat(cues):
    return [cue.replace("\n", " ") for cue in cues]


@pytest.mark.parametrize("preposition", PREPOSITIONS)
def test_a_russian_line_never_ends_with_a_preposition(preposition):
    """"<start> <p>" (33) against RIGHT (33) would be the even break (0 apart); it is forbidden, so
    the line breaks before the preposition (<start> against "<p> RIGHT": 2·len(p) + 2 apart, at most
    12) and not after "одинаковыми" (24 or more apart)."""
    start = STARTS[len(preposition)]
    assert len(f"{start} {preposition}") == len(RIGHT) == 33
    text = f"{start} {preposition} {RIGHT}"
    assert wrap_cue(text, "ru") == f"{start}\n{preposition} {RIGHT}"


@pytest.mark.parametrize("preposition", PREPOSITIONS)
def test_each_russian_preposition_is_one_piece_with_the_word_after_it(preposition):
    assert _words(f"Ответы {preposition} входах", "ru") == ["Ответы", f"{preposition} входах"]


def test_a_russian_cue_is_not_cut_after_a_preposition():
    """22 words of 5 letters, «через» the 11th: 11 words a cue (65 and 65) would be the even cut;
    the cut goes before «через» (59 against 71) rather than after «через слово» (71 against 59)."""
    words = ["слово"] * 22
    words[10] = "через"
    cues = _cues_between_words(" ".join(words), "ru")
    assert flat(cues) == [" ".join(words[:10]), " ".join(words[10:])]


def test_a_russian_cue_is_not_cut_between_a_number_and_its_noun():
    """10 words, «0,125 шагов», 10 words: after «0,125» both cues are 65 (0 apart, +8 for the digit:
    8), before it 59 against 71 (12), after «шагов» 71 against 59 (12): the number stays with its
    noun, and the first of the two equal cuts wins."""
    words = ["слово"] * 10 + ["0,125", "шагов"] + ["слово"] * 10
    cues = _cues_between_words(" ".join(words), "ru")
    assert flat(cues) == [" ".join(words[:10]), " ".join(words[10:])]


def test_a_russian_line_is_not_broken_between_a_number_and_its_noun():
    """"… всего 12" (36) against "итераций … подряд." (36) is the even break; before «12» the lines
    are 33 and 39 (6 apart), after «итераций» 45 (too wide)."""
    text = "Сеть училась долго и прошла всего 12 итераций градиентного спуска подряд."
    assert wrap_cue(text, "ru") == "Сеть училась долго и прошла всего\n12 итераций градиентного спуска подряд."


def test_a_chinese_line_never_breaks_after_de():
    """jieba: 我们|先看|经过|归一化|以后|的|向量|…; after 以后的 the lines are 12 and 10 (2 apart),
    forbidden; before 以后 9 and 13 (4), after 向量 14 and 8 (6)."""
    text = "我们先看经过归一化以后的向量长度会怎样变化呢"
    assert wrap_cue(text, "zh") == "我们先看经过归一化\n以后的向量长度会怎样变化呢"


def test_a_chinese_line_never_breaks_between_a_numeral_and_its_measure_word():
    """After "24" the lines are 10.5 and 10 (0.5 apart), forbidden; before it 9 and 11.5 (2.5), after
    次 12 and 9 (3)."""
    assert wrap_cue("模型一共调用归一化 24 次而且每次输入都不同", "zh") == "模型一共调用归一化\n24 次而且每次输入都不同"


def test_a_chinese_line_never_breaks_inside_a_word():
    """The most even breaks, 10 against 11 and 11 against 10, fall inside 归一化; before it the lines
    are 9 and 12 (3 apart), after it 12 and 9, and the first wins."""
    text = "我用这段文字来检查归一化这个词是否会被切开"
    assert wrap_cue(text, "zh") == "我用这段文字来检查\n归一化这个词是否会被切开"


def test_a_short_clause_after_a_colon_is_not_a_cue_of_its_own_in_russian():
    """The sentence up to ":" (87) is too long for one cue with «это огромная норма.» (19, under half
    a line), so the two are cut together between words: after «токен» 52 against 54."""
    text = ("В одиннадцати вызовах из двадцати четырёх есть токен длиннее медианы хотя бы вдесятеро: "
            "это огромная норма.")
    assert flat(split_into_cues(text, "ru")) == ["В одиннадцати вызовах из двадцати четырёх есть токен",
                                                 "длиннее медианы хотя бы вдесятеро: это огромная норма."]


def test_a_short_clause_ending_in_a_colon_does_not_lead_a_cue_of_its_own():
    """«Итак:» (5) before a sentence of 87: cut together, after «сдвигаются» 45 against 47; after
    «сильнее,» 57 against 35 (22, less 10 for the comma: 12)."""
    text = "Итак: входы сети с шумом всё равно сдвигаются не сильнее, чем у сети без нормализации вообще."
    assert flat(split_into_cues(text, "ru")) == ["Итак: входы сети с шумом всё равно сдвигаются",
                                                 "не сильнее, чем у сети без нормализации вообще."]


def test_a_short_clause_after_a_colon_is_not_a_cue_of_its_own_in_chinese():
    """Up to "：" 29 wide, 即巨大范数。 6 (under 8, half a line): cut together, after 至少为 17
    against 18; after "：" 29 against 6 (23, less 10: 13)."""
    text = "在二十四次调用中有十一次出现至少为中位数十倍长度的 token：即巨大范数。"
    assert [cue.replace("\n", "") for cue in split_into_cues(text, "zh")] == [
        "在二十四次调用中有十一次出现至少为", "中位数十倍长度的 token：即巨大范数。"]


def test_a_short_clause_after_a_semicolon_is_not_a_cue_of_its_own_in_english():
    """Up to ";" 89 wide, "a massive norm." 15: cut together, after "longer" 55 against 49 (6 apart);
    after "is" 48 against 56 (8), after "length;" 89 against 15."""
    text = ("In eleven of the twenty-four calls some token is longer than ten times the median length; "
            "a massive norm.")
    assert flat(split_into_cues(text, "en")) == ["In eleven of the twenty-four calls some token is longer",
                                                 "than ten times the median length; a massive norm."]
