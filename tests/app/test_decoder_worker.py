"""Generations in their own process: the same tokens as in-process, learners writing at once
decoded together, a cancel that frees the child for the next request, bad input as the
core's message, and a killed child reported."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from attn_core.pretrained import load_smollm
from attn_core.pretrained.smollm import PromptError
from attn_ui.compute.decoder_worker import DecoderWorker, GenerationInterrupted


@pytest.fixture(scope="module")
def worker():
    w = DecoderWorker()
    yield w
    w.close()


def test_the_child_writes_what_the_model_writes(worker):
    steps = list(worker.generate_steps("The capital of France is", 6))
    here = load_smollm().generate("The capital of France is", 6)
    assert [s.id for s in steps] == list(here.new_ids)
    # float32 in two processes whose BLAS may split the sums differently: the tolerance of
    # the reference comparison
    np.testing.assert_allclose(steps[-1].attention, here.steps[-1].attention, atol=1e-5)
    assert worker.pid is not None and worker.pid > 0


def test_the_first_step_brings_the_prompts_rows_from_the_child(worker):
    """The page needs no pass of its own over the prompt: the child's comes back with the
    first token, the numbers of the server's own pass."""
    text = "The capital of France is"
    steps = list(worker.generate_steps(text, 3, keep_prompt_rows=96))
    want = load_smollm().run(text).attentions[:, :, :-1, :-1]
    np.testing.assert_allclose(steps[0].prompt_rows, want, atol=1e-5)  # two processes' BLAS
    assert all(s.prompt_rows is None for s in steps[1:])


def test_a_learner_who_leaves_cancels_and_the_next_request_is_answered(worker):
    stream = worker.generate_steps("Once upon a time", 40)
    first = next(stream)
    stream.close()  # what Streamlit does to a stopped script's generator
    assert first.position > 0
    again = [s.id for s in worker.generate_steps("The sky is", 4)]
    assert again == list(load_smollm().generate("The sky is", 4).new_ids)


def test_learners_writing_at_once_share_the_steps_and_write_their_own_text(worker):
    """Three page threads ask at once: the child decodes them together (a step wrote for
    more than one), and each gets the tokens it would get alone, sampled ones too."""
    asks = [
        ("The sky is", 8, 0.0, 0),
        ("Once upon a time there was", 10, 0.9, 4),
        ("Hi", 6, 0.0, 0),
    ]
    got: dict[int, list[int]] = {}
    shared = []

    def learner(i: int) -> None:
        got[i] = []
        for step in worker.generate_steps(*asks[i]):
            got[i].append(step.id)
            shared.append(worker.last.together)

    threads = [threading.Thread(target=learner, args=(i,)) for i in range(len(asks))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for i, ask in enumerate(asks):
        assert got[i] == list(load_smollm().generate(*ask).new_ids), ask
    assert max(shared) > 1  # some steps wrote for two or three at once
    assert worker.alone is None or worker.alone.together == 1


def test_bad_input_comes_back_as_the_cores_message(worker):
    with pytest.raises(PromptError, match="control characters"):
        list(worker.generate_steps("bell \x07", 3))


def test_a_killed_child_is_reported_and_replaced():
    w = DecoderWorker()
    try:
        stream = w.generate_steps("Once upon a time", 40)
        next(stream)
        w._proc.kill()
        with pytest.raises(GenerationInterrupted, match="Press Write again"):
            for _ in stream:
                pass
        assert [s.id for s in w.generate_steps("The sky is", 2)] == list(
            load_smollm().generate("The sky is", 2).new_ids
        )
    finally:
        w.close()


def test_the_child_does_not_run_the_page_script_that_started_it(tmp_path, monkeypatch):
    """Streamlit installs the running page as __main__; a spawned child imports __main__
    first. The worker's child must not run it (a page run with no server, which may write)."""
    import sys
    import types

    marker = tmp_path / "ran.txt"
    script = tmp_path / "page.py"
    script.write_text(f"open({str(marker)!r}, 'w').write('the page ran')\n")
    page = types.ModuleType("__main__")
    page.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", page)
    w = DecoderWorker()
    try:
        assert [s.position for s in w.generate_steps("Hi", 1)]  # the child answered
    finally:
        w.close()
    assert sys.modules["__main__"] is page  # put back
    assert not marker.exists()
