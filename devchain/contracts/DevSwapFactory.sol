// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {DevSwapPair} from "./DevSwapPair.sol";

/// Creates one pair per token pair with CREATE2 (salt = keccak256(token0, token1)), as Uniswap V2,
/// so a pair's address is known before it exists.
contract DevSwapFactory {
    event PairCreated(address indexed token0, address indexed token1, address pair, uint256);

    mapping(address => mapping(address => address)) public getPair;
    address[] public allPairs;

    function allPairsLength() external view returns (uint256) {
        return allPairs.length;
    }

    function createPair(address tokenA, address tokenB) external returns (address pair) {
        require(tokenA != tokenB, "DevSwap: IDENTICAL_ADDRESSES");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0), "DevSwap: ZERO_ADDRESS");
        require(getPair[token0][token1] == address(0), "DevSwap: PAIR_EXISTS");
        pair = address(new DevSwapPair{salt: keccak256(abi.encodePacked(token0, token1))}());
        DevSwapPair(pair).initialize(token0, token1);
        getPair[token0][token1] = pair;
        getPair[token1][token0] = pair;
        allPairs.push(pair);
        emit PairCreated(token0, token1, pair, allPairs.length);
    }
}
