from .model import Feature


def generate(feature: Feature, command: str) -> str:
    raise NotImplementedError
