"""A case the question names that the document excepts from the rule an answer states."""

from __future__ import annotations

from composer_app.server.providers.answer_ranking import idf, passage_sentences, score
from composer_app.server.providers.excepted_cases import exception_for
from composer_app.server.providers.question_parts import read_question

LABOUR = ("Customers aged 70 and over get 10% off labour on weekday daytime jobs. The discount "
          "does not apply to the call-out fee or to parts. Call us on 0123 456 789.")


def _exception(question: str, text: str) -> str | None:
    part = read_question(question, lambda _: idf(40, 3))[0]
    units = passage_sentences("doc", 0, 0, "terms.md", text)
    found = exception_for(part, score(units[0], part), units)
    return None if found is None else found.text


def test_an_exception_naming_the_case_asked_about_answers_instead_of_the_rule() -> None:
    assert _exception("I'm 74. Do I get a discount on the call-out charge?", LABOUR) == \
        "The discount does not apply to the call-out fee or to parts."
    assert _exception("I'm on your yearly contract and need an emergency emptying today. Do I "
                      "still get my 15% off?",
                      "Customers on an annual contract get 15% off scheduled emptying. This "
                      "discount does not apply to emergency emptying.") == \
        "This discount does not apply to emergency emptying."


def test_an_exception_for_a_case_the_question_does_not_name_leaves_the_rule() -> None:
    assert _exception("I'm 74. Do I get a discount on labour?", LABOUR) is None
    assert _exception("Can I pay for an express phone repair?",
                      "Express repairs cost 20 euros. The student discount does not apply to "
                      "laptop repairs or data recovery.") is None
    assert _exception("My mum is 74. Does Gorsefield Pest Control do a pensioner discount?",
                      "Customers aged 70 or over get 10% off. The discount does not apply to "
                      "commercial contracts.") is None


def test_an_exception_is_looked_for_only_right_after_the_rule() -> None:
    far = ("Customers aged 70 and over get 10% off labour. We work on weekdays. We do not work "
           "at weekends. The discount does not apply to the call-out fee.")
    assert _exception("I'm 74. Do I get a discount on the call-out charge?", far) is None
