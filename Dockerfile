# Kozel: a slim non-root image running the bot; the database lives on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_URL=sqlite:////data/kozel.sqlite3 \
    TELEGRAM_WEBHOOK_HOST=0.0.0.0

WORKDIR /app
COPY pyproject.toml README.md ./
COPY core ./core
COPY bot ./bot
COPY adapters ./adapters
COPY bench ./bench
COPY locales ./locales
RUN pip install . \
    && useradd --create-home --uid 10001 kozel \
    && mkdir -p /data && chown kozel /data

USER kozel
VOLUME ["/data"]
# The Telegram webhook's port, used only when TELEGRAM_WEBHOOK_URL is set.
EXPOSE 8080
CMD ["python", "-m", "bot"]
