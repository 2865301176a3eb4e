# Kozel: a slim non-root image running the bot; its SQLite database is kept in /data,
# where `docker run -v kozel-data:/data` mounts a named volume (no VOLUME here: it would
# leave an anonymous volume behind each container, also under compose's PostgreSQL).
# The dependencies are the versions locked in uv.lock (as for `make install`); the
# project is installed as a wheel, its locales as package data.
FROM python:3.11-slim

ARG UV_VERSION=0.13.9
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    UV_NO_CACHE=1 \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PYTHON_DOWNLOADS=never \
    UV_PROJECT_ENVIRONMENT=/app/.venv \
    PATH=/app/.venv/bin:$PATH \
    DATABASE_URL=sqlite:////data/kozel.sqlite3 \
    TELEGRAM_WEBHOOK_HOST=0.0.0.0

WORKDIR /app
# The result picture's fallback fonts (bot/pictures/glyphs.py): colour emoji and CJK
# in players' names; FriBiDi lets Pillow shape emoji sequences, flags and Arabic.
RUN apt-get update && apt-get install --yes --no-install-recommends \
        fonts-noto-color-emoji fonts-droid-fallback libfribidi0 \
    && rm -rf /var/lib/apt/lists/*
RUN pip install "uv==${UV_VERSION}"
# The locked dependencies first: this layer is rebuilt only when the lock changes.
COPY pyproject.toml uv.lock ./
RUN uv sync --locked --no-install-project
COPY setup.py README.md LICENSE ./
COPY core ./core
COPY bot ./bot
COPY adapters ./adapters
COPY locales ./locales
# gcc builds the search player's C playout (core/yard/ai/_playout.c), then goes again.
RUN apt-get update && apt-get install --yes --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
RUN uv sync --locked --no-editable \
    && apt-get purge --yes --auto-remove gcc libc6-dev \
    && pip uninstall --yes uv \
    && useradd --create-home --uid 10001 kozel \
    && mkdir -p /data && chown kozel /data

USER kozel
# The Telegram webhook's port, used only when TELEGRAM_WEBHOOK_URL is set.
EXPOSE 8080
CMD ["python", "-m", "bot"]
