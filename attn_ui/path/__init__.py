"""The path through the step pages: where each page sits in the pipeline (`where`), the
"check yourself" form at its end (`checks`; the questions themselves are pure, in
``attn_lessons.questions``), and the learner's progress, kept in the browser and shown in
the menu (`progress`)."""
