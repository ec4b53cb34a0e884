"""The path through the step pages: where each page sits in the pipeline (`where`), the
"check yourself" questions at its end (`questions`, pure; `checks`, the view), and the
learner's progress, kept in the browser and shown in the menu (`progress`)."""
